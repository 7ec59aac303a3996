-- The picker's third pane: the current photo as coloured symbols (the daemon's `symbols`
-- output) in a terminal buffer. nvim_open_term + nvim_chan_send interpret the 24-bit SGR
-- colours in any outer terminal. Optionally (setup{ kitty = true }) the PNG is placed over the
-- pane with the kitty graphics protocol when the outer terminal speaks it.
local api = vim.api
local kitty = require('picker.kitty')
local palette = require('picker.palette')

local M = {}

local Pane = {}
Pane.__index = Pane

-- Opens the pane as a floating window at `cfg` (nvim_open_win's config). opts.kitty: use
-- the kitty graphics protocol when the outer terminal supports it.
function M.open(cfg, opts)
  local buf = api.nvim_create_buf(false, true)
  api.nvim_buf_set_option(buf, 'bufhidden', 'wipe')
  local win = api.nvim_open_win(buf, false, vim.tbl_extend('force', cfg,
    { style = 'minimal', border = 'rounded', focusable = false, zindex = 50 }))
  api.nvim_win_set_option(win, 'winhighlight', 'NormalFloat:Normal,FloatBorder:PickerBorder')
  local chan = api.nvim_open_term(buf, {})
  pcall(api.nvim_buf_set_name, buf, 'picker://image')
  local self = setmetatable({ buf = buf, win = win, chan = chan, sends = 0, sent = nil, request = nil }, Pane)
  self.kitty = opts and opts.kitty and kitty.supported() and kitty.new() or nil
  return self
end

function Pane:valid()
  return self.win and api.nvim_win_is_valid(self.win) and api.nvim_buf_is_valid(self.buf)
end

-- The pane's size in cells (what getImage's cells ask for).
function Pane:cells()
  if not self:valid() then return nil end
  return api.nvim_win_get_width(self.win), api.nvim_win_get_height(self.win)
end

-- Clears the terminal and writes `text` from its top-left corner; "\n" becomes "\r\n"
-- (a terminal's line feed keeps the column).
function Pane:write(text)
  if not self:valid() then return end
  local data = '\27[H\27[2J\27[?25l' .. text:gsub('\r?\n', '\r\n')
  api.nvim_chan_send(self.chan, data)
  self.sends = self.sends + 1
  self.sent = text
end

-- Shows symbol text from the daemon (its colours brought to 256 without 'termguicolors').
function Pane:show_symbols(text)
  self:write(vim.o.termguicolors and text or palette.to_256(text))
end

-- Shows a short line instead of a photo (no photo, or an error).
function Pane:show_message(text)
  if self.kitty then self.kitty:clear() end
  self:write('\27[2m' .. text .. '\27[0m')
end

-- Places a PNG over the pane's top-left cols x rows cells (kitty only): the cells the symbols
-- of the same photo took, so the picture keeps its aspect and covers them exactly.
function Pane:show_png(png, cols, rows)
  if not (self.kitty and self:valid()) then return end
  -- nvim_win_get_position gives the corner of the float's border; the text area is one cell in.
  local pos = api.nvim_win_get_position(self.win)
  local width, height = self:cells()
  self.kitty:place(png, pos[1] + 1, pos[2] + 1, math.min(cols or width, width), math.min(rows or height, height))
end

function Pane:close()
  if self.kitty then self.kitty:clear() end
  if self.win and api.nvim_win_is_valid(self.win) then pcall(api.nvim_win_close, self.win, true) end
  if api.nvim_buf_is_valid(self.buf) then pcall(api.nvim_buf_delete, self.buf, { force = true }) end
  self.win = nil
end

return M
