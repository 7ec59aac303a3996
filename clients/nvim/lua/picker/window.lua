-- The picker window: its floats (header, album list, photo list, the current photo),
-- their layout, mappings and autocommands, and the actions on them.
local follow = require('picker.follow')
local image = require('picker.image')
local api = vim.api

local val, notify, render, warn = follow.val, follow.notify, follow.render, follow.warn
local apply_session, fetch_image, refresh, connect = follow.apply_session, follow.fetch_image, follow.refresh, follow.connect
local line_index = follow.line_index
local err_text = require('picker.hints').text

local function config() return require('picker').config end

local M = {}

local augroup = api.nvim_create_augroup('picker', { clear = true })

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
  local u = follow.current
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
  local u = follow.current
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
  local u = follow.current
  if not u then return end
  local win = api.nvim_get_current_win()
  local target = (win == u.wins.albums) and u.wins.photos or u.wins.albums
  if api.nvim_win_is_valid(target) then api.nvim_set_current_win(target) end
end

-- Reloads everything; reconnects (and re-subscribes) when the daemon went away.
function M.refresh()
  local u = follow.current
  if not u then return end
  if not u.client:is_open() then connect(u) end
  refresh(u)
end

function M.close()
  local u = follow.current
  if not u then return end
  follow.current = nil
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
  session = (session and session ~= '') and session or config().session
  local ui = follow.current
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
      u.client:new_session(config().width, config().height, function(res2, err2)
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
  if follow.current then M.close() end
  local l = layout()
  u.session = state
  u.bufs.header = make_buf(u.name .. '/header')
  u.bufs.albums = make_buf(u.name .. '/albums')
  u.bufs.photos = make_buf(u.name .. '/photos')
  u.wins.header = open_win(u.bufs.header, l.header, false, false)
  u.wins.albums = open_win(u.bufs.albums, l.albums, false, true)
  u.wins.photos = open_win(u.bufs.photos, l.photos, false, true)
  u.image = image.open(l.image, { kitty = config().kitty })
  u.bufs.image, u.wins.image = u.image.buf, u.image.win
  follow.current = u
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
      require('picker.insert').insert({ session = u.name })
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
        if follow.current == u and closed == win then
          vim.schedule(M.close)
          return
        end
      end
    end,
  })
  api.nvim_create_autocmd('VimResized', {
    group = augroup,
    callback = function()
      if follow.current ~= u then return end
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

return M
