"""The window itself, above every screen: the App and run_app (app), its event routing, frame clock, idle wait and
window size, attract mode, and the command line's doors that open it (shot: one view to a PNG; bench_ui: the frame
rate).

May import every other room of the window and the headless rooms; no room of the window imports it (scenes see the App
through the Window protocol of ``gameplay.ui.widgets.scene``)."""
