"""Renaissance (Pascal Bernard): the second game's rules engine and its reconstructed board.

Pure standard library, like games.engine.
"""
