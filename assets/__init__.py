"""Data files of Table Companion (fonts, sounds, boards, card data).

Shipped as the package ``companion.assets``; read them with ``companion.resources``.
"""
