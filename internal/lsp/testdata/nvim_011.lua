-- Run by TestNeovim: loads the README's Neovim 0.11 snippet (a file of
-- nvim-lspconfig's lsp/ directory) and prints the configuration it returns.
local cfg = dofile(vim.env.FG_SNIPPET)
io.stdout:write('CONFIG ' .. vim.fn.json_encode(cfg) .. '\n')
vim.cmd('qa!')
