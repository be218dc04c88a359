"""lsp-agents: the effective instruction cascade of AI coding harnesses."""

__version__ = "0.1.0"
