-- Headless Neovim (0.7+) driving `lsp-agents serve` through the built-in LSP client.
-- Run by scripts/nvim-smoke.sh, which sets LSP_AGENTS_WS (a workspace) and LSP_AGENTS_PYTHON.
local ws = vim.env.LSP_AGENTS_WS
local python = vim.env.LSP_AGENTS_PYTHON or 'python3'
local ok_all = true
local t0 = vim.loop.hrtime()
local function log(...)
  local parts = {}
  for _, v in ipairs({ ... }) do parts[#parts + 1] = type(v) == 'string' and v or vim.inspect(v) end
  io.stdout:write(string.format('[%4.0fms] ', (vim.loop.hrtime() - t0) / 1e6) .. table.concat(parts, ' ') .. '\n')
end
local function check(cond, what)
  if not cond then ok_all = false end
  log((cond and 'PASS ' or 'FAIL ') .. what)
  return cond
end
local function finish()
  log(ok_all and 'ALL PASS' or 'SOME FAILED')
  vim.cmd(ok_all and 'qa!' or 'cq!')
end

local init_result
local client_id = vim.lsp.start_client({
  name = 'lsp-agents',
  cmd = { python, '-m', 'lsp_agents', 'serve' },
  root_dir = ws,
  workspace_folders = { { uri = vim.uri_from_fname(ws), name = 'ws' } },
  init_options = { debounceMs = 0 },
  on_init = function(_, result) init_result = result end,
  on_exit = function(code, signal) log('server exited', code, signal) end,
})
if not check(client_id ~= nil, 'start_client') then return finish() end

vim.cmd('edit ' .. ws .. '/src/main.ts')
local source = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(source, client_id)
if not check(vim.wait(15000, function() return init_result ~= nil end, 20), 'initialize') then return finish() end
local client = vim.lsp.get_client_by_id(client_id)
check(init_result.serverInfo.name == 'lsp-agents', 'serverInfo is lsp-agents')

-- Hover on the first line of a source file: the active instructions of the default harness.
vim.api.nvim_win_set_cursor(0, { 1, 3 })
local res = vim.lsp.buf_request_sync(source, 'textDocument/hover', vim.lsp.util.make_position_params(), 10000)
local hover = res and res[client_id] and res[client_id].result
local text = hover and hover.contents and hover.contents.value or ''
log('hover:', text)
check(text:find('**opencode**', 1, true) == 1, 'hover names the default harness')
check(text:find('[AGENTS.md](' .. vim.uri_from_fname(ws .. '/AGENTS.md') .. ')', 1, true) ~= nil, 'hover links AGENTS.md')

-- The effective prompt, as `lsp-agents prompt --format json` prints it.
local reply = client.request_sync('workspace/executeCommand', {
  command = 'lspAgents.effectivePrompt', arguments = { { uri = vim.uri_from_bufnr(source) } } }, 10000, source)
local prompt = reply and reply.result
log('effectivePrompt:', prompt)
check(prompt and prompt.harness == 'opencode' and prompt.cwd == ws, 'effectivePrompt: harness and launch directory')
check(prompt and prompt.eager[1] and prompt.eager[1].text:find('SMOKE RULE', 1, true) ~= nil, 'effectivePrompt: the instructions')

-- Diagnostics of the analysis on the instruction file (a duplicated bullet).
vim.cmd('edit ' .. ws .. '/AGENTS.md')
local agents = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(agents, client_id)
local function duplicate()
  for _, d in ipairs(vim.diagnostic.get(agents)) do
    if d.source == 'lsp-agents' and (d.code == 'duplicate-instruction' or (d.user_data and d.user_data.lsp and d.user_data.lsp.code == 'duplicate-instruction')) then return true end
  end
  return false
end
check(vim.wait(15000, duplicate, 20), 'diagnostic duplicate-instruction on AGENTS.md')

client.stop()
check(vim.wait(5000, function() return client.is_stopped() end, 20), 'clean stop')
finish()
