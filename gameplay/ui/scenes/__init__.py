"""The other screens: the title screen and its cards, the settings panel (its columns and agent files), the Tree Lab
(panel, tree, "Check my file" and its trees) and the PDN game browser.

May import the headless rooms and ``gameplay.ui.widgets``, ``boards``, ``overlay`` and ``play``."""
