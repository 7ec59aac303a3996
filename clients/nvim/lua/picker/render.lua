-- Draws the picker's text panes (header, album list, photo list) from its state `u`.
-- The image pane draws itself (picker.image).
local api = vim.api

local M = {}

local ns = api.nvim_create_namespace('picker')

local function val(v)
  if v == vim.NIL then return nil end
  return v
end

local function pad(s, w)
  local n = vim.fn.strdisplaywidth(s)
  if n >= w then return s end
  return s .. string.rep(' ', w - n)
end

local function human_bytes(n)
  if not n then return '' end
  if n < 1000 then return n .. ' B' end
  if n < 1000 * 1000 then return ('%.1f kB'):format(n / 1000) end
  return ('%.1f MB'):format(n / 1000 / 1000)
end

local function set_lines(buf, lines)
  if not api.nvim_buf_is_valid(buf) then return end
  api.nvim_buf_set_option(buf, 'modifiable', true)
  api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  api.nvim_buf_set_option(buf, 'modifiable', false)
  api.nvim_buf_clear_namespace(buf, ns, 0, -1)
end

local function hl(buf, group, line, from, to)
  api.nvim_buf_add_highlight(buf, ns, group, line, from or 0, to or -1)
end

-- Pick order of a photo row of the displayed album, or nil. Matched by the path relative to the
-- library (`path` in both photosPage and selection replies): in "All Photos" several photos
-- can share a file name. A row without `path` falls back to name + album.
local function pick_order(u, photo)
  for _, p in ipairs(u.selection) do
    if photo.path ~= nil then
      if p.path == photo.path then return p.order end
    elseif p.name == photo.name and (u.photos_album == 'All Photos' or p.album == u.photos_album) then
      return p.order
    end
  end
  return nil
end

local function render_header(u)
  local s = u.session or {}
  local width = api.nvim_win_is_valid(u.wins.header) and api.nvim_win_get_width(u.wins.header) or 60
  local title = (val(s.title) or 'Photo Library') .. ' · ' .. u.name
  local message = val(s.message) or ''
  if u.status then message = u.status end
  local line1 = pad(title, math.max(vim.fn.strdisplaywidth(title) + 2, width - vim.fn.strdisplaywidth(message))) .. message
  local album = val(s.album)
  local info = {}
  info[#info + 1] = album and ('album: ' .. album) or 'no album'
  if val(s.photo) then info[#info + 1] = ('photo %d/%d'):format(val(s.photo_index) or 0, val(s.photo_count) or 0) end
  info[#info + 1] = ('picks %d/%d'):format(val(s.selection_count) or #u.selection, val(s.max_selection) or 10)
  if val(s.width) then
    info[#info + 1] = val(s.height) and ('pane %dx%d'):format(s.width, s.height) or ('pane %d wide'):format(s.width)
  end
  local left = table.concat(info, ' · ')
  local hints = '<CR> select  <Tab> pick  h/l pane  I insert  q close'
  local room = width - vim.fn.strdisplaywidth(left) - 2
  if room < #hints then hints = room >= 26 and '<CR> select  <Tab> pick' or '' end
  local line2 = pad(left, width - #hints) .. hints
  set_lines(u.bufs.header, { line1, line2 })
  hl(u.bufs.header, 'PickerTitle', 0, 0, #title)
  hl(u.bufs.header, u.status and 'PickerError' or 'PickerMessage', 0, #line1 - #message, -1)
  hl(u.bufs.header, 'PickerHint', 1, #line2 - #hints, -1)
end

-- A name as one line of the list: control characters shown as \xHH (a newline in a name would
-- make nvim_buf_set_lines fail and leave the list on "(loading…)").
local function shown(name)
  return (tostring(name or ''):gsub('%c', function(c) return ('\\x%02x'):format(c:byte()) end))
end

local function render_albums(u)
  local lines = {}
  local current = val((u.session or {}).album)
  local namew = 0
  for _, a in ipairs(u.albums) do namew = math.max(namew, vim.fn.strdisplaywidth(shown(a.name))) end
  for i, a in ipairs(u.albums) do
    lines[i] = (a.name == current and '> ' or '  ') .. pad(shown(a.name), namew) .. '  ' .. a.photos
  end
  if #lines == 0 then lines = { u.albums_loaded and '(no albums)' or '(loading…)' } end
  set_lines(u.bufs.albums, lines)
  for i, a in ipairs(u.albums) do
    if a.name == current then hl(u.bufs.albums, 'PickerCurrent', i - 1) end
  end
end

local function render_photos(u)
  local lines = {}
  local s = u.session or {}
  local current = val(s.photo)
  local cols = { 0, 0, 0, 0 }
  local rows = {}
  local picked, orderw = {}, 3
  for i, p in ipairs(u.photos) do
    local order = pick_order(u, p)
    picked[i] = order
    if order then orderw = math.max(orderw, #tostring(order) + 2) end
    rows[i] = { shown(p.name), ('%dx%d'):format(p.width or 0, p.height or 0), p.format or '', human_bytes(p.bytes) }
    for c = 1, 4 do cols[c] = math.max(cols[c], vim.fn.strdisplaywidth(rows[i][c])) end
  end
  for i, p in ipairs(u.photos) do
    local is_current = (p.index == val(s.photo_index) and p.name == current)
    local mark = picked[i] and ('[' .. picked[i] .. ']') or '[ ]'
    local r = rows[i]
    lines[i] = (is_current and '> ' or '  ') .. pad(mark, orderw) .. ' ' .. pad(r[1], cols[1]) .. '  '
      .. string.rep(' ', cols[2] - #r[2]) .. r[2] .. '  ' .. pad(r[3], cols[3]) .. '  '
      .. string.rep(' ', cols[4] - #r[4]) .. r[4]
  end
  if #lines == 0 then
    if not val(s.album) then
      lines = { '(select an album)' }
    elseif u.photos_album ~= val(s.album) then
      lines = { '(loading…)' }
    else
      lines = { '(no photos)' }
    end
  end
  set_lines(u.bufs.photos, lines)
  for i, p in ipairs(u.photos) do
    if picked[i] then hl(u.bufs.photos, 'PickerPicked', i - 1, 2, 2 + #('[' .. picked[i] .. ']')) end
    if p.index == val(s.photo_index) and p.name == current then hl(u.bufs.photos, 'PickerCurrent', i - 1) end
  end
end

-- Redraws the header, the album list and the photo list.
function M.panes(u)
  render_header(u)
  render_albums(u)
  render_photos(u)
end

return M
