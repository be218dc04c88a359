from lsp_agents.cli import run

if __name__ == "__main__":  # not when a worker process started by spawning imports it again
    run()
