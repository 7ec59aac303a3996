-- The picker's view of the daemon: one connection bound to a session, with a method per
-- request the picker makes. Replies are turned into plain tables where the wire's "0 means
-- none" values are nil (album '', photo_index 0, ...). Every method takes cb(result, err);
-- err is { code, name, message } (see picker.hints for the text shown).
local conn = require('picker.conn')
local wire = require('picker.wire')

local M = {}

local Client = {}
Client.__index = Client

local function none(v)
  if v == '' or v == 0 then return nil end
  return v
end

-- A sessionState (or sessionEvent) with absent values as nil.
function M.session_state(f)
  return {
    name = f.name, title = none(f.title), width = f.width, height = none(f.height),
    max_selection = f.max_selection, selection_count = f.selection_count,
    album = none(f.album), album_index = none(f.album_index), photo = none(f.photo),
    photo_index = none(f.photo_index), photo_count = f.photo_count, message = none(f.message),
  }
end

local function photo_row(p)
  return {
    index = p.index, name = p.name, path = p.path, width = p.width, height = p.height, bytes = p.bytes,
    format = (wire.PHOTO_FORMATS[p.format] or ('format-' .. tostring(p.format))):upper(), date = p.date,
  }
end

-- opts: socket, session, on_event(event), on_close(err). The connection opens at once.
function M.new(opts)
  local self = setmetatable({ session = opts.session, socket = opts.socket }, Client)
  self.conn = conn.open({ socket = opts.socket, on_event = opts.on_event, on_close = opts.on_close,
    client_name = 'picker.nvim' })
  return self
end

function Client:close() self.conn:close() end
function Client:is_open() return self.conn:is_open() end

-- Sends `name` with the session filled in; `shape` turns the reply's fields into the result.
function Client:call(name, fields, shape, cb)
  fields = fields or {}
  if fields.session == nil then fields.session = self.session end
  return self.conn:request(name, fields, function(res, err)
    if not cb then return end
    if err then return cb(nil, err) end
    cb(shape and shape(res) or res, nil)
  end)
end

function Client:status(cb) return self:call('status', nil, M.session_state, cb) end
function Client:show(cb) return self:call('sessionShow', nil, M.session_state, cb) end

function Client:new_session(width, height, cb)
  return self:call('sessionNew', { name = self.session, width = width, height = height or 0 },
    M.session_state, cb)
end

function Client:albums(cb)
  return self:call('albums', {}, function(res)
    return vim.tbl_map(function(a) return { index = a.index, name = a.name, photos = a.photo_count } end, res.albums)
  end, cb)
end

-- The whole selected album, page by page (PROTOCOL.md's client checklist): { album, photos }.
function Client:photos(cb)
  local rows, album = {}, nil
  local function page(offset)
    self:call('photosPage', { offset = offset, limit = 1000 }, nil, function(res, err)
      if err then
        if err.name == 'no_such_photo' and offset > 0 then return cb({ album = album, photos = rows }, nil) end
        return cb(nil, err)
      end
      if album and res.album ~= album then return page(0) end -- the album changed under us
      if offset == 0 then rows = {} end
      album = res.album
      for _, p in ipairs(res.photos) do rows[#rows + 1] = photo_row(p) end
      if #res.photos == 0 or offset + #res.photos >= res.total then return cb({ album = album, photos = rows }, nil) end
      page(offset + #res.photos)
    end)
  end
  page(0)
end

function Client:select_album(index, cb)
  return self:call('selectAlbum', { album = index }, M.session_state, cb)
end

function Client:select_photo(index, cb)
  return self:call('selectPhoto', { photo = index }, M.session_state, cb)
end

local function selection_shape(res)
  local photos = {}
  for i, p in ipairs(res.photos) do
    photos[i] = { order = i, album = p.album, name = p.name, width = p.width, height = p.height, path = p.path,
      absolute_path = p.absolute_path }
  end
  return { photos = photos, count = #photos, max_selection = res.max_selection }
end

function Client:selection(cb) return self:call('selection', nil, selection_shape, cb) end
function Client:toggle(index, cb) return self:call('toggle', { photo = index }, selection_shape, cb) end
function Client:clear_selection(cb) return self:call('clearSelection', nil, selection_shape, cb) end

-- The current photo as coloured symbol text fitted into cols x rows cells:
-- { cols, rows, text } (text: UTF-8 with 24-bit SGR colours, rows separated by "\n").
function Client:symbols(cols, rows, cb)
  return self:call('getImage', { format = wire.FORMAT_CODES.symbols, quality = 0, flags = 2,
    cells = { cols = cols, rows = rows } }, function(res)
    return { cols = res.width, rows = res.height, text = res.data }
  end, cb)
end

-- The current photo as a PNG fitted into the session's pane: { width, height, data }.
function Client:png(cb)
  return self:call('getImage', { format = wire.FORMAT_CODES.png, quality = 0, flags = 0 }, function(res)
    return { width = res.width, height = res.height, data = res.data }
  end, cb)
end

-- Follows the session (and the library) on this connection.
function Client:subscribe(cb)
  return self.conn:subscribe(self.session, true, cb)
end

return M
