"""Clean SVG drawings of boards (m,n,k and Sudoku here; Othello lives in ``games/othello/svg.py``)."""
