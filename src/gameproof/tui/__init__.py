"""Terminal user interfaces (Textual) over gameproof's engines.

One app (:class:`gameproof.tui.app.GameproofApp`) opens on one of its screens: the game screen
(``game_screen``) or the Othello record viewer (``record_screen``). Each screen has a model written without
Textual (``*_model`` modules: cursor, history, proven values), tested on its own, and draws it; the game
screen runs long searches in cancellable thread workers.
"""
