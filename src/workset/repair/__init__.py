"""Test-guided repair: small changes to the code a failing test points to, checked by the tests.

:mod:`.mutants` lists one-place changes (an operator, a name, a number, a literal the task
quotes) within the functions a failure points to, ranked by the task's words;
:mod:`.search` tries them in a scratch copy of the workspace against the failing tests and
keeps the first that makes them pass while every test that passed still passes. The
``search_fix`` tool (:mod:`workset.tools.fix_search`) offers it to an agent; a guided edit run
(:mod:`workset.loop.verify`) calls it after the tests first fail and applies what it finds
with an ordinary ``edit_file`` call, so the tests check it again and ``undo_edit`` can undo it.
"""
