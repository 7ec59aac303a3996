-- Insertion: the picked photos into the current buffer, formatted per filetype; and
-- emptying the pick list.
local client_mod = require('picker.client')
local follow = require('picker.follow')
local api = vim.api

local notify = follow.notify
local err_text = require('picker.hints').text

local M = {}

-- Format for a buffer: formats[filetype], else formats.default. A format is a
-- string where %s stands for the absolute path, or a function(photo) -> string.
function M.format_for(ft)
  local f = require('picker').config.formats
  if ft and ft ~= '' and f[ft] ~= nil then return f[ft] end
  return f.default or '%s'
end

-- A path as a link target: every byte that could end a Markdown/org link or start markup
-- (`)`, `]`, `[`, `<`, `>`, space, newline, backslash, quotes...) percent-encoded, so a file name
-- cannot break out of the link (issue 21 #6). UTF-8 letters pass.
function M.link_path(path)
  return (path:gsub('[^%w/%._~%-\128-\255]', function(c) return ('%%%02X'):format(c:byte()) end))
end

-- A path as plain text: control characters percent-encoded, so a newline cannot split it.
function M.plain_path(path)
  return (path:gsub('%c', function(c) return ('%%%02X'):format(c:byte()) end))
end

-- Formats whose %s sits inside link syntax get link_path; other formats plain_path.
local function is_link_format(fmt) return fmt:find('](', 1, true) or fmt:find('[[', 1, true) or fmt:find('<', 1, true) end

function M.format_photo(fmt, photo)
  if type(fmt) == 'function' then return tostring(fmt(photo)) end
  fmt = tostring(fmt)
  local path = is_link_format(fmt) and M.link_path(photo.absolute_path) or M.plain_path(photo.absolute_path)
  return (fmt:gsub('%%s', function() return path end))
end

-- Calls method `name` of the open picker's client when it is on `session`, else of a short
-- connection of its own, closed after the reply.
local function with_client(session, name, cb)
  session = (session and session ~= '') and session or nil
  local ui = follow.current
  if ui and ui.client:is_open() and (not session or session == ui.name) then
    return ui.client[name](ui.client, cb)
  end
  local c = client_mod.new({ socket = require('picker').config.socket, session = session or require('picker').config.session })
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

return M
