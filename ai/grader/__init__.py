"""The exercise grader of ``main.py check`` (issue 26): the grading, its cases, the typical faults, the student's
instrumented game in its worker process, and both searches step by step.

May import ``gameplay.rules``, ``ai.kernel``, ``ai.agents`` and ``ai.teaching``."""
