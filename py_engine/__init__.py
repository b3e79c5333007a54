"""Rummikub rules engine, exact move solver and computer opponents.

Pure Python with no dependencies, so the same code runs in CPython and in Pyodide.
"""

__version__ = "0.1.0"
