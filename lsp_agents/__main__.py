from lsp_agents.cli import run

run()
