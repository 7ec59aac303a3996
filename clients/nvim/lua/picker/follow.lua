-- Following the daemon: the picker's connection and subscription, the state it fetches
-- (albums, photos, pick list, the current photo's picture) and the events that change it.
-- Holds the open picker (one at a time) for picker.window, picker.insert and picker.state().
local client_mod = require('picker.client')
local hints = require('picker.hints')
local render_mod = require('picker.render')
local api = vim.api

local M = {}

-- The open picker; nil when it is closed (set by picker.window).
M.current = nil

-- Absent values are nil already (picker.client); vim.NIL only from a user's own tables.
local function val(v)
  if v == vim.NIL then return nil end
  return v
end
M.val = val

local function notify(msg, level)
  vim.notify('picker: ' .. msg, level or vim.log.levels.INFO)
end
M.notify = notify

local err_text = hints.text

local function render(u)
  if u ~= M.current or u.closed then return end
  render_mod.panes(u)
  u.renders = u.renders + 1
end
M.render = render

---------------------------------------------------------------------------
-- State from the daemon

local fetch_photos, fetch_selection, fetch_albums, fetch_image, follow_cursor_to_current

local function warn(u, err)
  if u.closed or err.name == 'cancelled' then return end -- a superseded image request: expected
  notify(err_text(err), vim.log.levels.WARN)
end
M.warn = warn

local function apply_session(u, s)
  if type(s) ~= 'table' or u.closed then return end
  local old = u.session or {}
  u.session = s
  u.status = nil
  local album = val(s.album)
  if album ~= u.photos_album or album ~= val(old.album) then
    u.photos = {}
    if album then fetch_photos(u) else u.photos_album = nil end
  end
  -- The picture and the cursor follow the current photo, wherever it was changed.
  if s.photo ~= old.photo or s.photo_index ~= old.photo_index or s.album ~= old.album or not u.image_for then
    fetch_image(u)
    follow_cursor_to_current(u)
  end
  render(u)
end

fetch_photos = function(u)
  u.client:photos(function(res, err)
    if u.closed then return end
    if err then
      if err.name ~= 'nothing_selected' then warn(u, err) end
      return
    end
    -- Only the list of the album that is still selected is kept.
    if res.album == val((u.session or {}).album) then
      u.photos = res.photos
      u.photos_album = res.album
      render(u)
      follow_cursor_to_current(u)
    end
  end)
end

fetch_selection = function(u)
  u.client:selection(function(res, err)
    if u.closed then return end
    if err then return warn(u, err) end
    u.selection = res.photos
    render(u)
  end)
end

fetch_albums = function(u)
  u.client:albums(function(res, err)
    if u.closed then return end
    if err then return warn(u, err) end
    u.albums = res
    u.albums_loaded = true
    render(u)
  end)
end

-- Asks for the current photo as symbols fitted to the image pane's cells and, when kitty
-- placement is on, then as a PNG placed over the cells the symbols took: one after the other,
-- since the daemon supersedes a waiting image request of a session with the next (both at once
-- lost the symbols to the PNG).
-- Replies to older requests are dropped: only the newest is shown.
fetch_image = function(u)
  local pane = u.image
  if u.closed or not (pane and pane:valid()) then return end
  local s = u.session or {}
  if not val(s.photo) then
    u.image_for = 'none'
    pane:show_message(val(s.album) and 'no photo' or 'no album')
    return
  end
  local cols, rows = pane:cells()
  u.image_for = s.photo
  pane.asked = { cols, rows }
  local id
  id = u.client:symbols(cols, rows, function(res, err)
    if u.closed or id ~= pane.request then return end
    if err then
      if err.name ~= 'cancelled' then pane:show_message(err_text(err)) end
      return
    end
    pane:show_symbols(res.text)
    u.images = u.images + 1
    if pane.kitty then
      local pid
      pid = u.client:png(function(png, png_err)
        if not u.closed and not png_err and pid == pane.request then pane:show_png(png.data, res.cols, res.rows) end
      end)
      pane.request = pid
    end
  end)
  pane.request = id
end

local function refresh(u)
  fetch_albums(u)
  u.client:status(function(res, err)
    if u.closed then return end
    if err then
      u.status = err_text(err)
      render(u)
      return
    end
    u.photos_album = nil
    u.image_for = nil
    apply_session(u, res)
  end)
  fetch_selection(u)
end
M.apply_session, M.fetch_image, M.refresh = apply_session, fetch_image, refresh

local function on_event(u, ev)
  if u.closed then return end
  u.events = u.events + 1
  if ev.kind == 'libraryEvent' then
    -- Photos were added or removed: reload the lists.
    fetch_albums(u)
    if val((u.session or {}).album) then fetch_photos(u) end
    fetch_selection(u)
    return
  end
  if ev.kind ~= 'sessionEvent' then
    -- libraryChangesEvent (the libraryEvent before it reloads), scan progress, and event kinds
    -- of a newer daemon: nothing to do, and no reason to stop reading.
    u.other_events = u.other_events + 1
    return
  end
  local s = client_mod.session_state(ev.fields)
  if ev.change == 'closed' then
    u.session = s
    u.status = 'session closed'
    u.selection, u.photos, u.photos_album = {}, {}, nil
    u.image_for = nil
    fetch_image(u)
    render(u)
    return
  end
  if ev.change == 'created' then
    u.status = nil
    refresh(u)
    return
  end
  apply_session(u, s)
  if ev.change == 'selection' then fetch_selection(u) end
end

-- Opens the picker's connection and subscribes to its session and the library.
local function connect(u)
  local c
  c = client_mod.new({
    socket = require('picker').config.socket, session = u.name,
    on_event = function(ev) if u.client == c then on_event(u, ev) end end,
    on_close = function(err)
      if u.closed or u.client ~= c or not err then return end
      u.status = 'not following events: ' .. err_text(err)
      render(u)
    end,
  })
  u.client = c
  c:subscribe(function(_, err) if err then warn(u, err) end end)
end
M.connect = connect

local function line_index(win)
  return api.nvim_win_get_cursor(win)[1]
end
M.line_index = line_index

-- Puts the photo list's cursor on the current photo (after the list or the photo changed
-- elsewhere), without sending anything back. Not while our own moves are on their way: the
-- cursor would jump back to a photo the user has already moved past.
follow_cursor_to_current = function(u)
  local idx = val((u.session or {}).photo_index)
  if not idx or u.selecting > 0 or not (u.wins.photos and api.nvim_win_is_valid(u.wins.photos)) then return end
  if u.photos_album ~= val(u.session.album) then return end
  for i, p in ipairs(u.photos) do
    if p.index == idx and line_index(u.wins.photos) ~= i then
      u.cursor_row = i
      pcall(api.nvim_win_set_cursor, u.wins.photos, { i, 0 })
      return
    end
  end
end
M.follow_cursor_to_current = follow_cursor_to_current

return M
