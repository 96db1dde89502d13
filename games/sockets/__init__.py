"""The game and lobby websockets and what they share: one read of a game per version, database
threads, socket slots and limits, presence, cleanup on any exit."""
