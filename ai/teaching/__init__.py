"""The teaching records: the recorders that keep a search's tree and the decision model every screen presents
(tree_recorder, decision_model, decision_tree), the step-through's events (trace), what nodes are called (tree_names),
the narration and the quiz, Monte Carlo's record (mcts_record), the Tree Lab's searches (treelab, treelab_mcts), the
tree's growth and the race of agents, and one decision with its recorded tree as a saved game keeps it
(decision_file).

May import ``gameplay.rules``, ``ai.kernel`` and ``ai.agents``; never pygame (the window and the command line
draw what is recorded here)."""
