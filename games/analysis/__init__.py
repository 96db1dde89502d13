"""Computer analysis of finished games (and hints in games against bots only): docs/ai.md,
"Analysis"; the endpoints are in docs/protocol.md, section 13."""
