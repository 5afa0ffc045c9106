"""The touchscreen: one loop, one intent vocabulary, small scene objects.

Importing this package loads nothing and initialises nothing (no pygame, no fonts): the
composition root (app.py) builds an AppContext and hands it to ``loop.Loop``.
"""
