"""Game-agnostic, pure core: engine protocol, actions, errors, turn order.

Nothing here does I/O: no pygame, cv2, gpiozero, picamera2, sqlite3, time or random
(tests/test_architecture.py enforces it).
"""
