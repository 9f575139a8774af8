"""The Pig view's colours (RGB), shared by the view (:mod:`gameplay.ui.boards.pig_view`) and its cards
(:mod:`gameplay.ui.boards.pig_cards`), which import them from here rather than from each other."""

PLAYER_COLOURS = ((79, 195, 247), (255, 138, 101))
"""Player 1 blue and player 2 orange (the tic-tac-toe X and O colours)."""
CARD = (32, 37, 52)
CARD_EDGE = (46, 53, 72)
TEXT = (232, 236, 244)
MUTED = (133, 144, 170)
FAINT = (92, 102, 130)
BAR_BG = (44, 50, 70)
BUST = (255, 110, 110)
GOLD = (255, 213, 79)
DIE_FACE = (246, 243, 234)
DIE_EDGE = (196, 190, 176)
PIP = (34, 38, 52)
PIP_ONE = (206, 52, 62)
