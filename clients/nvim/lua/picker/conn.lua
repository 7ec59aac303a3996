-- One connection to pickerd over a vim.loop pipe: handshake, pipelined requests matched to
-- callbacks by id, events pushed to a handler. Never blocks: writes are queued by libuv,
-- reads arrive in read_start's callback and are reassembled by the wire framer; callbacks
-- run on the main loop through vim.schedule (so they may call any API).
local uv = vim.loop
local wire = require('picker.wire')

local M = {}

local Conn = {}
Conn.__index = Conn

-- The socket path as every pickerd client resolves it (PROTOCOL.md "Transport"): the explicit one,
-- else $PICKER_SOCKET, else $XDG_RUNTIME_DIR/pickerd.sock, else /tmp/pickerd-UID/pickerd.sock.
-- Empty values count as unset.
function M.socket_path(explicit)
  local function set(v) return v ~= nil and v ~= '' and v or nil end
  if set(explicit) then return explicit end
  if set(vim.env.PICKER_SOCKET) then return vim.env.PICKER_SOCKET end
  if set(vim.env.XDG_RUNTIME_DIR) then return vim.env.XDG_RUNTIME_DIR .. '/pickerd.sock' end
  return ('/tmp/pickerd-%d/pickerd.sock'):format(uv.getuid())
end

-- The /tmp fallback folder must be ours and closed to others, or another user could put a
-- socket there (the Swift client checks the same before it sends a byte).
local function check_fallback_folder(path)
  local dir = path:match('^(/tmp/pickerd%-%d+)/pickerd%.sock$')
  if not dir then return nil end
  local st = uv.fs_lstat(dir)
  if not st then return nil end -- no folder: the connect fails with its own error
  if st.type ~= 'directory' or st.uid ~= uv.getuid() or st.mode % 64 ~= 0 then
    return ('refusing %s: the folder is not a private folder of this user'):format(dir)
  end
  return nil
end

local function client_error(name, message)
  return { code = 0, name = name, message = message }
end
M.client_error = client_error

-- Opens a connection and sends hello at once; requests made before the daemon answers are
-- queued behind it (pipelined). opts:
--   socket     explicit path (else the default, see socket_path)
--   on_event   function(event) for event frames (wire.decode_event's table; unknown kinds too)
--   on_close   function(err|nil) once, when the connection ends (err nil after :close())
--   client_name  for the daemon's log
function M.open(opts)
  opts = opts or {}
  local self = setmetatable({
    path = M.socket_path(opts.socket),
    on_event = opts.on_event,
    on_close = opts.on_close,
    pending = {}, -- id -> callback(fields, err, frame)
    queued = {}, -- frames written before the connect completed
    next_id = 2, -- 1 is the hello; 0 is the connection's own
    framer = wire.framer(wire.MAX_REPLY_FRAME),
    connected = false,
    closed = false,
    server = nil, -- the helloReply's fields
  }, Conn)
  local refused = check_fallback_folder(self.path)
  if refused then
    vim.schedule(function() self:_finish(client_error('not_connected', refused)) end)
    return self
  end
  self.pipe = uv.new_pipe(false)
  self.pending[1] = function(fields, err)
    if err then
      self.refusal = err -- the daemon closes after a refused hello; _finish reports this
      return
    end
    self.server = fields
    self.max_reply = fields.max_reply_frame
  end
  self:_write(wire.encode('hello', 1, { version = wire.PROTOCOL_VERSION, client_name = opts.client_name or 'picker.nvim' }))
  self.pipe:connect(self.path, function(err)
    if err then
      local msg = err:match('ENOENT') and ('no pickerd socket at ' .. self.path)
        or err:match('ECONNREFUSED') and ('nothing listens on ' .. self.path)
        or ('cannot connect to ' .. self.path .. ': ' .. err)
      vim.schedule(function() self:_finish(client_error('not_connected', msg)) end)
      return
    end
    self.connected = true
    for _, data in ipairs(self.queued) do self.pipe:write(data) end
    self.queued = {}
    self.pipe:read_start(function(rerr, data) self:_on_read(rerr, data) end)
  end)
  return self
end

function Conn:_write(data)
  if self.closed then return false end
  if self.connected then self.pipe:write(data) else self.queued[#self.queued + 1] = data end
  return true
end

-- Runs in libuv's callback ("fast" context): only framing here, the rest is scheduled.
function Conn:_on_read(err, data)
  if err or not data then
    vim.schedule(function()
      self:_finish(client_error('disconnected', err and ('connection lost: ' .. err) or 'pickerd closed the connection'))
    end)
    return
  end
  self.framer:feed(data)
  local frames = {}
  while true do
    local frame, ferr = self.framer:next()
    if ferr then
      vim.schedule(function() self:_finish(ferr) end)
      break
    end
    if not frame then break end
    frames[#frames + 1] = frame
  end
  if #frames > 0 then vim.schedule(function() self:_dispatch(frames) end) end
end

local function call(cb, ...)
  local ok, e = pcall(cb, ...)
  if not ok then vim.notify('picker: ' .. tostring(e), vim.log.levels.ERROR) end
end

function Conn:_dispatch(frames)
  for _, frame in ipairs(frames) do
    if self.closed then return end
    if frame.event then
      -- Events are never replies; unknown kinds are handed on raw (kind 'unknown').
      local ev = wire.decode_event(frame)
      if ev and self.on_event then call(self.on_event, ev) end
    elseif frame.id == 0 then
      -- An error about the whole connection; the daemon closes it.
      local fields = wire.decode_payload(frame.type, frame.payload) or {}
      self:_finish({ code = fields.code or 99, name = wire.error_name(fields.code or 99), message = fields.message or 'connection refused' })
      return
    else
      local cb = self.pending[frame.id]
      self.pending[frame.id] = nil
      if cb then
        local fields, err = wire.decode_payload(frame.type, frame.payload)
        if fields and frame.type == wire.TYPES.error then
          err = { code = fields.code, name = wire.error_name(fields.code), message = fields.message }
          fields = nil
        end
        call(cb, fields, err, frame)
      end
    end
  end
end

-- Sends request `name` (a PROTOCOL.md message name) with `fields`; cb(fields, err, frame)
-- is called with the reply's fields, or err = { code, name, message } (an error reply, or a
-- client-side `not_connected`/`disconnected` with code 0). Returns the request id.
function Conn:request(name, fields, cb)
  local id = self.next_id
  self.next_id = id + 1
  if self.closed then
    vim.schedule(function() if cb then cb(nil, self.close_error or client_error('disconnected', 'not connected')) end end)
    return id
  end
  self.pending[id] = cb or function() end
  self:_write(wire.encode(name, id, fields))
  return id
end

-- Asks for events of `session` (and of the library when `library` is true) on this connection.
function Conn:subscribe(session, library, cb)
  self.subscription = self:request('subscribe', { session = session or '', flags = library and 1 or 0 }, cb)
  return self.subscription
end

function Conn:_finish(err)
  if self.closed then return end
  self.closed = true
  if err and self.refusal then err = self.refusal end
  self.close_error = err or client_error('disconnected', 'closed')
  if self.pipe and not self.pipe:is_closing() then self.pipe:close() end
  local pending = self.pending
  self.pending = {}
  local ids = vim.tbl_keys(pending)
  table.sort(ids)
  for _, id in ipairs(ids) do call(pending[id], nil, self.close_error) end
  if self.on_close then call(self.on_close, err) end
end

-- Closes the connection; pending callbacks get a `disconnected` error, on_close gets nil.
function Conn:close()
  self:_finish(nil)
end

function Conn:is_open() return not self.closed end

-- A one-off request on a short connection (for commands run without an open picker).
function M.once(opts, name, fields, cb)
  local c = M.open(opts)
  c:request(name, fields, function(res, err, frame)
    c:close()
    cb(res, err, frame)
  end)
  return c
end

return M
