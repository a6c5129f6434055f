-- Run by TestNeovim in Debian's Neovim (0.7.2), headless, after the README's
-- Neovim 0.7 snippet as init.lua: open a broken example, wait for the
-- server's diagnostics, ask for the quick fix of QOS001, apply it and wait
-- for the finding to go. Every step prints one tagged JSON line.
local function out(tag, v)
  io.stdout:write(tag .. ' ' .. vim.fn.json_encode(v) .. '\n')
  io.stdout:flush()
end
local function fail(msg)
  io.stdout:write('FAIL ' .. msg .. '\n')
  io.stdout:flush()
  vim.cmd('cquit 1')
end

vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.FG_FILE))
local buf = vim.api.nvim_get_current_buf()
out('FILETYPE', vim.bo[buf].filetype)
if not vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 50) then
  fail('no diagnostics within 30 s')
end

local target
local ds = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local lsp = (d.user_data or {}).lsp or {}
  local code = d.code or lsp.code
  table.insert(ds, { lnum = d.lnum, col = d.col, code = code, related = lsp.relatedInformation or {} })
  if code == 'QOS001' then
    target = d
  end
end
out('DIAGNOSTICS', ds)
if not target then
  fail('no QOS001')
end

local params = {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = { start = { line = target.lnum, character = target.col }, ['end'] = { line = target.end_lnum, character = target.end_col } },
  -- What vim.lsp.buf.code_action() sends: the line's diagnostics in LSP form.
  context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, target.lnum) },
}
local actions = {}
for _, r in pairs(vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 10000) or {}) do
  for _, a in ipairs(r.result or {}) do
    table.insert(actions, a)
  end
end
out('ACTIONS', actions)
local fix
for _, a in ipairs(actions) do
  if a.isPreferred then
    fix = a
  end
end
if not fix then
  fail('no preferred quick fix')
end
vim.lsp.util.apply_workspace_edit(fix.edit, 'utf-16')
local cleared = vim.wait(30000, function()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if (d.code or ((d.user_data or {}).lsp or {}).code) == 'QOS001' then
      return false
    end
  end
  return true
end, 50)
out('AFTER', { line = vim.api.nvim_buf_get_lines(buf, target.lnum, target.lnum + 1, false)[1], cleared = cleared })
vim.cmd('qa!')
