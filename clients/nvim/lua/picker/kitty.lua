-- The kitty graphics protocol, optional (setup{ kitty = true }): the PNG placed at the image
-- pane's screen position, written straight to the outer terminal. Every image has one id and
-- is deleted when it is replaced or the pane closes (never left behind).
local M = {}

local b64chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

-- Base64 of a byte string (Neovim 0.7 has no vim.base64).
function M.base64(s)
  local out = {}
  for i = 1, #s, 3 do
    local a, b, c = s:byte(i, i + 2)
    local n = a * 65536 + (b or 0) * 256 + (c or 0)
    local c1, c2 = math.floor(n / 262144) % 64, math.floor(n / 4096) % 64
    local c3, c4 = math.floor(n / 64) % 64, n % 64
    out[#out + 1] = b64chars:sub(c1 + 1, c1 + 1) .. b64chars:sub(c2 + 1, c2 + 1)
      .. (b and b64chars:sub(c3 + 1, c3 + 1) or '=') .. (c and b64chars:sub(c4 + 1, c4 + 1) or '=')
  end
  return table.concat(out)
end

-- Whether the outer terminal speaks the protocol (kitty, WezTerm, Ghostty; not through tmux,
-- which needs passthrough wrapping this module does not do).
function M.supported()
  if vim.env.TMUX and vim.env.TMUX ~= '' then return false end
  local term, prog = vim.env.TERM or '', vim.env.TERM_PROGRAM or ''
  return term == 'xterm-kitty' or term == 'xterm-ghostty' or (vim.env.KITTY_WINDOW_ID or '') ~= ''
    or prog == 'WezTerm' or prog == 'ghostty'
end

local Image = {}
Image.__index = Image

-- Writes all of `s` to descriptor 1, the outer terminal, one write(2) at a time. Neovim's own
-- screen output shares that descriptor (and may have made it non-blocking): a piece cut short
-- or refused with EAGAIN is finished here, never dropped, or the terminal would read the
-- screen's next output as image data.
local function write_all(s)
  local uv = vim.loop
  local done = 0
  while done < #s do
    local n = uv.fs_write(1, done == 0 and s or s:sub(done + 1), -1)
    if n and n > 0 then done = done + n else uv.sleep(1) end
  end
end

-- out: function(piece) writing one escape sequence to the terminal (default: write_all).
function M.new(out)
  return setmetatable({ id = math.random(1, 16777215), shown = false, out = out or write_all }, Image)
end

-- The escape sequences that send `png` as image `id` without showing it: chunks of 4096
-- base64 bytes, each a sequence of its own, so Neovim's screen output may come between two
-- chunks but never inside one.
function M.transmit_sequences(id, png)
  local data = M.base64(png)
  local parts = {}
  local chunk = 4096
  for i = 1, math.max(1, #data), chunk do
    local more = (i + chunk <= #data) and 1 or 0
    local piece = data:sub(i, i + chunk - 1)
    if i == 1 then
      parts[#parts + 1] = ('\27_Ga=t,f=100,q=2,i=%d,m=%d;%s\27\\'):format(id, more, piece)
    else
      parts[#parts + 1] = ('\27_Gm=%d;%s\27\\'):format(more, piece)
    end
  end
  return parts
end

-- Shows image `id` at 0-based screen (row, col) in cols x rows cells: one sequence, so the
-- cursor cannot be moved by Neovim between the move and the placement.
function M.place_sequence(id, row, col, cols, rows)
  return ('\0277\27[%d;%dH\27_Ga=p,q=2,C=1,i=%d,c=%d,r=%d\27\\\0278'):format(row + 1, col + 1, id, cols, rows)
end

function M.delete_sequence(id) return ('\27_Ga=d,d=I,i=%d,q=2\27\\'):format(id) end

function Image:place(png, row, col, cols, rows)
  self:clear()
  for _, piece in ipairs(M.transmit_sequences(self.id, png)) do self.out(piece) end
  self.out(M.place_sequence(self.id, row, col, cols, rows))
  self.shown = true
end

function Image:clear()
  if self.shown then self.out(M.delete_sequence(self.id)) end
  self.shown = false
end

return M
