"""The public Python API, re-exported by :mod:`gameproof` (``import gameproof as gp``): see docs/api.md."""
