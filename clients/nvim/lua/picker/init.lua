-- pickerd photo picker for Neovim 0.7+.
-- Speaks pickerd's protocol on the socket itself (lua/picker/wire.lua, conn.lua): one
-- connection per picker window carries its requests (pipelined) and its event subscription.
local client_mod = require('picker.client')
local hints = require('picker.hints')
local image = require('picker.image')
local render_mod = require('picker.render')
local api = vim.api

-- Absent values are nil already (picker.client); vim.NIL only from a user's own tables.
local function val(v)
  if v == vim.NIL then return nil end
  return v
end

local M = {}

local defaults = {
  socket = nil,
  session = 'nvim',
  width = 800,
  height = 600,
  kitty = false,
  formats = { markdown = '![](%s)', default = '%s' },
}

M.config = vim.deepcopy(defaults)

-- One picker at a time; `ui` is nil when it is closed.
local ui = nil
local augroup = api.nvim_create_augroup('picker', { clear = true })

local function notify(msg, level)
  vim.notify('picker: ' .. msg, level or vim.log.levels.INFO)
end

local err_text = hints.text

function M.setup(opts)
  opts = opts or {}
  local cfg = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts)
  if opts.formats then
    -- A user table replaces the format list, but `default` stays defined.
    cfg.formats = vim.tbl_extend('force', { default = defaults.formats.default }, opts.formats)
  end
  M.config = cfg
  return M
end

local function render(u)
  if u ~= ui or u.closed then return end
  render_mod.panes(u)
  u.renders = u.renders + 1
end

---------------------------------------------------------------------------
-- State from the daemon

local fetch_photos, fetch_selection, fetch_albums, fetch_image

local function warn(u, err)
  if u.closed or err.name == 'cancelled' then return end -- a superseded image request: expected
  notify(err_text(err), vim.log.levels.WARN)
end

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
    M._follow_cursor_to_current(u)
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
      M._follow_cursor_to_current(u)
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

-- Asks for the current photo as symbols fitted to the image pane's cells (and as a PNG when
-- kitty placement is on). Replies to older requests are dropped: only the newest is shown.
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
  end)
  pane.request = id
  if pane.kitty then
    local pid
    pid = u.client:png(function(res, err)
      if not u.closed and not err and pid == pane.png_request then pane:show_png(res.data) end
    end)
    pane.png_request = pid
  end
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
    socket = M.config.socket, session = u.name,
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

---------------------------------------------------------------------------
-- Window

local function layout()
  local cols, rows = vim.o.columns, vim.o.lines - vim.o.cmdheight
  local w = math.max(40, math.min(cols - 4, math.max(60, math.floor(cols * 0.9))))
  local list_h = math.max(3, math.min(rows - 9, math.floor(rows * 0.8) - 5))
  local total_h = list_h + 2 + 4
  local row = math.max(0, math.floor((rows - total_h) / 2))
  local col = math.max(0, math.floor((cols - w - 2) / 2))
  -- album list | photo list | the current photo; each float has a 1-cell border on each side.
  local aw = math.max(10, math.floor(w * 0.22))
  local pw = math.max(10, math.floor(w * 0.36))
  local iw = math.max(4, w - aw - pw - 4)
  return {
    header = { relative = 'editor', row = row, col = col, width = w, height = 2 },
    albums = { relative = 'editor', row = row + 4, col = col, width = aw, height = list_h },
    photos = { relative = 'editor', row = row + 4, col = col + aw + 2, width = pw, height = list_h },
    image = { relative = 'editor', row = row + 4, col = col + aw + pw + 4, width = iw, height = list_h },
  }
end

local function make_buf(name)
  local buf = api.nvim_create_buf(false, true)
  api.nvim_buf_set_option(buf, 'bufhidden', 'wipe')
  api.nvim_buf_set_option(buf, 'filetype', 'picker')
  api.nvim_buf_set_option(buf, 'modifiable', false)
  pcall(api.nvim_buf_set_name, buf, 'picker://' .. name)
  return buf
end

local function open_win(buf, cfg, enter, focusable)
  cfg = vim.tbl_extend('force', cfg, { style = 'minimal', border = 'rounded', focusable = focusable, zindex = 50 })
  local win = api.nvim_open_win(buf, enter, cfg)
  api.nvim_win_set_option(win, 'winhighlight', 'NormalFloat:Normal,FloatBorder:PickerBorder')
  api.nvim_win_set_option(win, 'wrap', false)
  if focusable then api.nvim_win_set_option(win, 'cursorline', true) end
  return win
end

local function line_index(win)
  return api.nvim_win_get_cursor(win)[1]
end

-- Puts the photo list's cursor on the current photo (after the list or the photo changed
-- elsewhere), without sending anything back. Not while our own moves are on their way: the
-- cursor would jump back to a photo the user has already moved past.
function M._follow_cursor_to_current(u)
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

local function make_current(u, row)
  local p = u.photos[row]
  if not p or u.photos_album ~= val((u.session or {}).album) then return end
  if p.index == val((u.session or {}).photo_index) then return end
  u.selecting = u.selecting + 1
  u.client:select_photo(p.index, function(res, err)
    u.selecting = u.selecting - 1
    if err then return warn(u, err) end
    apply_session(u, res)
  end)
end

-- Moving the cursor in the photo list makes the photo under it current (the picture follows).
local function on_cursor_moved(u)
  if u.closed or api.nvim_get_current_win() ~= u.wins.photos then return end
  local row = line_index(u.wins.photos)
  if row == u.cursor_row then return end
  u.cursor_row = row
  make_current(u, row)
end

-- Actions, also used by the mappings.
function M.select()
  local u = ui
  if not u then return end
  local win = api.nvim_get_current_win()
  if win == u.wins.albums then
    local a = u.albums[line_index(win)]
    if not a then return end
    u.photos, u.photos_album = {}, nil -- stale until the new list arrives
    render(u)
    u.client:select_album(a.index, function(res, err)
      if err then return warn(u, err) end
      apply_session(u, res)
    end)
    if api.nvim_win_is_valid(u.wins.photos) then
      api.nvim_set_current_win(u.wins.photos)
      u.cursor_row = 1
      api.nvim_win_set_cursor(u.wins.photos, { 1, 0 })
    end
  elseif win == u.wins.photos then
    make_current(u, line_index(win))
  end
end

function M.toggle()
  local u = ui
  if not u or api.nvim_get_current_win() ~= u.wins.photos then return end
  local p = u.photos[line_index(u.wins.photos)]
  if not p then return end
  if u.photos_album ~= val((u.session or {}).album) then
    notify('the photo list is loading; try again', vim.log.levels.WARN)
    return
  end
  u.client:toggle(p.index, function(res, err)
    if u.closed then return end
    if err then return warn(u, err) end
    u.selection = res.photos
    if u.session then u.session.selection_count = res.count end
    render(u)
  end)
  -- Move down like a file manager's mark key.
  local row = line_index(u.wins.photos)
  if row < #u.photos then api.nvim_win_set_cursor(u.wins.photos, { row + 1, 0 }) end
end

function M.switch_pane()
  local u = ui
  if not u then return end
  local win = api.nvim_get_current_win()
  local target = (win == u.wins.albums) and u.wins.photos or u.wins.albums
  if api.nvim_win_is_valid(target) then api.nvim_set_current_win(target) end
end

-- Reloads everything; reconnects (and re-subscribes) when the daemon went away.
function M.refresh()
  if not ui then return end
  if not ui.client:is_open() then connect(ui) end
  refresh(ui)
end

function M.close()
  local u = ui
  if not u then return end
  ui = nil
  u.closed = true
  u.client:close()
  pcall(api.nvim_clear_autocmds, { group = augroup })
  if u.image then u.image:close() end
  for _, win in pairs(u.wins) do
    if api.nvim_win_is_valid(win) then pcall(api.nvim_win_close, win, true) end
  end
  if u.origin and api.nvim_win_is_valid(u.origin) then pcall(api.nvim_set_current_win, u.origin) end
end

local function map(buf, lhs, fn)
  vim.keymap.set('n', lhs, fn, { buffer = buf, nowait = true, silent = true })
end

local function define_highlights()
  for group, link in pairs({
    PickerTitle = 'Title', PickerMessage = 'Comment', PickerHint = 'Comment', PickerError = 'ErrorMsg',
    PickerCurrent = 'Visual', PickerPicked = 'Special', PickerBorder = 'FloatBorder',
  }) do
    vim.cmd(('highlight default link %s %s'):format(group, link))
  end
end

-- Opens the picker on `session` (default: config.session), creating the session
-- with the configured pane size when the daemon does not have it.
function M.open(session)
  session = (session and session ~= '') and session or M.config.session
  if ui then
    if ui.name == session then
      local w = api.nvim_win_is_valid(ui.wins.photos) and ui.wins.photos or ui.wins.albums
      if api.nvim_win_is_valid(w) then api.nvim_set_current_win(w) end
      return
    end
    M.close()
  end
  define_highlights()
  local origin = api.nvim_get_current_win()
  local u = {
    name = session, origin = origin,
    albums = {}, photos = {}, selection = {}, photos_album = nil,
    bufs = {}, wins = {}, events = 0, other_events = 0, renders = 0, images = 0, selecting = 0,
  }
  connect(u)
  u.client:show(function(res, err)
    if err and err.name == 'no_such_session' then
      u.client:new_session(M.config.width, M.config.height, function(res2, err2)
        if err2 then
          u.client:close()
          return notify(err_text(err2), vim.log.levels.ERROR)
        end
        M._open_ui(u, res2)
      end)
    elseif err then
      u.client:close()
      notify(err_text(err), vim.log.levels.ERROR)
    else
      M._open_ui(u, res)
    end
  end)
end

function M._open_ui(u, state)
  if ui then M.close() end
  local l = layout()
  u.session = state
  u.bufs.header = make_buf(u.name .. '/header')
  u.bufs.albums = make_buf(u.name .. '/albums')
  u.bufs.photos = make_buf(u.name .. '/photos')
  u.wins.header = open_win(u.bufs.header, l.header, false, false)
  u.wins.albums = open_win(u.bufs.albums, l.albums, false, true)
  u.wins.photos = open_win(u.bufs.photos, l.photos, false, true)
  u.image = image.open(l.image, { kitty = M.config.kitty })
  u.bufs.image, u.wins.image = u.image.buf, u.image.win
  ui = u
  for _, name in ipairs({ 'albums', 'photos' }) do
    local buf = u.bufs[name]
    map(buf, '<CR>', M.select)
    map(buf, '<Tab>', M.toggle)
    map(buf, 'q', M.close)
    map(buf, '<Esc>', M.close)
    map(buf, 'h', M.switch_pane)
    map(buf, 'l', M.switch_pane)
    map(buf, 'R', M.refresh)
    map(buf, 'I', function()
      local target = u.origin
      M.close()
      if target and api.nvim_win_is_valid(target) then api.nvim_set_current_win(target) end
      M.insert({ session = u.name })
    end)
  end
  api.nvim_create_autocmd('CursorMoved', {
    group = augroup, buffer = u.bufs.photos,
    callback = function() on_cursor_moved(u) end,
  })
  api.nvim_create_autocmd('WinClosed', {
    group = augroup,
    callback = function(args)
      local closed = tonumber(args.match)
      for _, win in pairs(u.wins) do
        if ui == u and closed == win then
          vim.schedule(M.close)
          return
        end
      end
    end,
  })
  api.nvim_create_autocmd('VimResized', {
    group = augroup,
    callback = function()
      if ui ~= u then return end
      local nl = layout()
      for name, win in pairs(u.wins) do
        if api.nvim_win_is_valid(win) then api.nvim_win_set_config(win, nl[name]) end
      end
      render(u)
      fetch_image(u) -- the cells changed
    end,
  })
  api.nvim_set_current_win(val((state or {}).album) and u.wins.photos or u.wins.albums)
  render(u)
  refresh(u)
end

---------------------------------------------------------------------------
-- Insert

-- Format for a buffer: formats[filetype], else formats.default. A format is a
-- string where %s stands for the absolute path, or a function(photo) -> string.
function M.format_for(ft)
  local f = M.config.formats
  if ft and ft ~= '' and f[ft] ~= nil then return f[ft] end
  return f.default or '%s'
end

function M.format_photo(fmt, photo)
  if type(fmt) == 'function' then return tostring(fmt(photo)) end
  local path = photo.absolute_path
  return (tostring(fmt):gsub('%%s', function() return path end))
end

-- Calls method `name` of the open picker's client when it is on `session`, else of a short
-- connection of its own, closed after the reply.
local function with_client(session, name, cb)
  session = (session and session ~= '') and session or nil
  if ui and ui.client:is_open() and (not session or session == ui.name) then
    return ui.client[name](ui.client, cb)
  end
  local c = client_mod.new({ socket = M.config.socket, session = session or M.config.session })
  c[name](c, function(res, err)
    c:close()
    cb(res, err)
  end)
end

-- Empties the pick list of the open picker's session, else of the configured one.
-- opts.on_done(err|nil) when done.
function M.clear(opts)
  opts = opts or {}
  with_client(opts.session, 'clear_selection', function(_, err)
    if err then notify(err_text(err), vim.log.levels.ERROR) end
    if opts.on_done then opts.on_done(err) end
  end)
end

-- Inserts the picked photos at the cursor of the current window (one per line,
-- the first at the cursor). opts.format overrides the per-filetype format;
-- opts.session the session; opts.on_done(lines|nil, err) is called when done.
function M.insert(opts)
  opts = opts or {}
  local win = api.nvim_get_current_win()
  local buf = api.nvim_get_current_buf()
  local cursor = api.nvim_win_get_cursor(win)
  local fmt = opts.format or M.format_for(api.nvim_buf_get_option(buf, 'filetype'))
  with_client(opts.session, 'selection', function(res, err)
    local function done(lines, e)
      if opts.on_done then opts.on_done(lines, e) end
    end
    if err then notify(err_text(err), vim.log.levels.ERROR) return done(nil, err) end
    local photos = (res and res.photos) or {}
    if #photos == 0 then
      notify('no photos picked (press <Tab> on photos in :PickerOpen)', vim.log.levels.WARN)
      return done({}, nil)
    end
    local lines = {}
    for _, p in ipairs(photos) do
      for _, l in ipairs(vim.split(M.format_photo(fmt, p), '\n', { plain = true })) do lines[#lines + 1] = l end
    end
    if not api.nvim_buf_is_valid(buf) then return done(nil, { code = 1, message = 'buffer is gone' }) end
    if not api.nvim_buf_get_option(buf, 'modifiable') then
      notify('buffer is not modifiable', vim.log.levels.ERROR)
      return done(nil, { code = 1, message = 'not modifiable' })
    end
    -- Insert after the character under the cursor (like `p`), or at column 0 of an empty line.
    local row = cursor[1] - 1
    local line = api.nvim_buf_get_lines(buf, row, row + 1, false)[1] or ''
    local col = cursor[2]
    if #line > 0 then
      local charlen = #vim.fn.strcharpart(line:sub(col + 1), 0, 1)
      col = math.min(#line, col + math.max(charlen, 1))
    else
      col = 0
    end
    api.nvim_buf_set_text(buf, row, col, row, col, lines)
    if api.nvim_win_is_valid(win) and api.nvim_win_get_buf(win) == buf then
      local last = row + #lines - 1
      local endcol = (#lines == 1 and col or 0) + #lines[#lines]
      pcall(api.nvim_win_set_cursor, win, { last + 1, math.max(0, endcol - 1) })
    end
    done(lines, nil)
  end)
end

-- For tests and statuslines: the open picker's state, or nil.
function M.state()
  return ui
end

return M
