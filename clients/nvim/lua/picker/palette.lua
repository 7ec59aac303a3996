-- 24-bit SGR colours (38;2;R;G;B / 48;2;R;G;B) to the nearest of xterm's 256 (38;5;N), for a
-- Neovim without 'termguicolors': its terminal buffers drop 24-bit colours there, and the
-- daemon's symbols came out as white shapes on black.
local M = {}

local levels = { 0, 95, 135, 175, 215, 255 } -- the 6x6x6 cube's steps (indices 16-231)

local function nearest_level(v)
  local best, best_d = 1, math.huge
  for i, l in ipairs(levels) do
    local d = math.abs(v - l)
    if d < best_d then best, best_d = i, d end
  end
  return best - 1, levels[best]
end

local function distance(r, g, b, r2, g2, b2)
  return (r - r2) ^ 2 + (g - g2) ^ 2 + (b - b2) ^ 2
end

-- The xterm index nearest to (r, g, b): the colour cube's or the grey ramp's (232-255).
function M.index(r, g, b)
  local ri, rl = nearest_level(r)
  local gi, gl = nearest_level(g)
  local bi, bl = nearest_level(b)
  local cube = 16 + 36 * ri + 6 * gi + bi
  local grey_step = math.max(0, math.min(23, math.floor(((r + g + b) / 3 - 8) / 10 + 0.5)))
  local grey = 8 + 10 * grey_step
  if distance(r, g, b, grey, grey, grey) < distance(r, g, b, rl, gl, bl) then return 232 + grey_step end
  return cube
end

-- `text` with every 24-bit colour of its SGR sequences replaced by its 256-colour index; text
-- outside the sequences is left as it is.
function M.to_256(text)
  return (text:gsub('\27%[([%d;]*)m', function(params)
    local out = (';' .. params):gsub(';([34])8;2;(%d+);(%d+);(%d+)', function(layer, r, g, b)
      return (';%s8;5;%d'):format(layer, M.index(tonumber(r), tonumber(g), tonumber(b)))
    end)
    return '\27[' .. out:sub(2) .. 'm'
  end))
end

return M
