from lsp_agents.cli import main

raise SystemExit(main())
