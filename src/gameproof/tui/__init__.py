"""Terminal user interfaces (Textual) over gameproof's engines.

Each screen has a model written without Textual (``*_model`` modules: cursor, history, proven values),
tested on its own, and a thin Textual app (``*_app`` modules) that draws it and runs long searches in
cancellable thread workers.
"""
