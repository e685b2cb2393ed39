"""Certificates of game values: the file format (:mod:`.records`) and the independent checker (:mod:`.check`).

The builder lives with the search (:mod:`gameproof.search.certificate`); the checker shares no code with it.
"""
