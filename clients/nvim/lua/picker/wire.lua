-- The pickerd wire codec (docs/PROTOCOL.md, protocol version 1): framing, primitives,
-- requests, replies and events. Pure functions over Lua strings of bytes, no I/O.
--
-- Every message is declared once in MESSAGES (lua/picker/messages.lua) as a list of
-- { field, kind }; encode and decode walk that table (the same shape as the Python package's wire.py and pickerd.el).
-- Decoded payloads are tables keyed by the field names of PROTOCOL.md. Numbers are Lua
-- numbers (LuaJIT doubles: u64/i64 are exact up to 2^53, which covers sizes and dates).
--
-- Kinds: 'u8' 'u16' 'u32' 'u64' 'i64' 'bool' 'string' 'blob' 'format' 'selector',
-- { 'list', kind }, { 'struct', fields }, { 'optional', fields } (a bool, then the fields),
-- { 'if_flag', bit, fields } (the fields follow when the preceding `flags` has that bit),
-- { 'range', kind, lo, hi } (out_of_range outside lo..hi), { 'tail', kind } (a last field
-- the frame may leave out: read when bytes remain, written only when not 0).
--
-- Errors are values: the boundary functions return nil, { code = N, name = 'x', message = '...' }.
local M = {}

local byte, char, floor, concat = string.byte, string.char, math.floor, table.concat

M.PROTOCOL_VERSION = 1
M.HEADER_SIZE = 9 -- u32 length, u8 type, u32 id
M.MIN_LENGTH = 5 -- a frame's length counts type + id + payload
M.MAX_REQUEST_FRAME = 1024 * 1024
M.MAX_REPLY_FRAME = 256 * 1024 * 1024
M.EVENT_BIT = 0x80

-- The message table and its constants live in picker.messages; they are part of this
-- module's API as before.
local messages = require('picker.messages')
M.ERRORS, M.ERROR_CODES, M.error_name = messages.ERRORS, messages.ERROR_CODES, messages.error_name
M.FORMATS, M.FORMAT_CODES = messages.FORMATS, messages.FORMAT_CODES
M.PHOTO_FORMATS = messages.PHOTO_FORMATS
M.RAW_COMPANION_TAG = messages.RAW_COMPANION_TAG
M.SESSION_CHANGES, M.change_name = messages.SESSION_CHANGES, messages.change_name
M.MESSAGES, M.TYPES, M.message_name = messages.MESSAGES, messages.TYPES, messages.message_name

local function fail(code, message)
  error({ code = code, name = M.error_name(code), message = message }, 0)
end
local function malformed(message) fail(1, message) end

-- Runs fn(...) and turns a raised wire error into the values nil, err.
local function guarded(fn, ...)
  local ok, a, b = pcall(fn, ...)
  if ok then return a, b end
  if type(a) == 'table' and a.code then return nil, a end
  error(a, 0) -- a bug in this module, not bad bytes
end

---------------------------------------------------------------------------
-- Primitives

local function be(n, v) -- v as n big-endian bytes (v >= 0, exact below 2^53)
  local out = {}
  for i = n, 1, -1 do
    out[i] = v % 256
    v = floor(v / 256)
  end
  return char(unpack(out))
end

M.u8 = function(v) return be(1, v) end
M.u16 = function(v) return be(2, v) end
M.u32 = function(v) return be(4, v) end

function M.string(s) return be(4, #s) .. s end

-- Strict UTF-8: no overlong forms, no surrogates, nothing above U+10FFFF.
function M.valid_utf8(s)
  local i, n = 1, #s
  while i <= n do
    local c = byte(s, i)
    local len, min
    if c < 0x80 then len, min = 1, 0
    elseif c >= 0xc2 and c <= 0xdf then len, min = 2, 0x80
    elseif c >= 0xe0 and c <= 0xef then len, min = 3, 0x800
    elseif c >= 0xf0 and c <= 0xf4 then len, min = 4, 0x10000
    else return false end
    if len > 1 then
      if i + len - 1 > n then return false end
      local cp = c % (2 ^ (7 - len))
      for k = 1, len - 1 do
        local cc = byte(s, i + k)
        if cc < 0x80 or cc > 0xbf then return false end
        cp = cp * 64 + (cc - 0x80)
      end
      if cp < min or cp > 0x10ffff or (cp >= 0xd800 and cp <= 0xdfff) then return false end
    end
    i = i + len
  end
  return true
end

---------------------------------------------------------------------------
-- Encoding

local write_fields

local function write(out, kind, value)
  if type(kind) == 'string' then
    if kind == 'u8' or kind == 'format' then out[#out + 1] = be(1, value or 0)
    elseif kind == 'u16' then out[#out + 1] = be(2, value or 0)
    elseif kind == 'u32' then out[#out + 1] = be(4, value or 0)
    elseif kind == 'u64' or kind == 'i64' then
      local v = value or 0
      local hi = floor(v / 4294967296)
      local lo = v - hi * 4294967296
      if hi < 0 then hi = hi + 4294967296 end
      out[#out + 1] = be(4, hi) .. be(4, lo)
    elseif kind == 'bool' then out[#out + 1] = value and '\1' or '\0'
    elseif kind == 'string' or kind == 'blob' then
      local s = value or ''
      out[#out + 1] = be(4, #s)
      out[#out + 1] = s
    elseif kind == 'opt_selector' then
      -- nil (kind 0): none given, the current one; else a selector.
      if value == nil then out[#out + 1] = '\0' else write(out, 'selector', value) end
    elseif kind == 'extensions' then
      -- The extension area (PROTOCOL.md, "Extending a message"): tag:u8, len:u32, bytes, kept as given.
      local tags = {}
      for tag in pairs(value or {}) do tags[#tags + 1] = tag end
      table.sort(tags)
      for _, tag in ipairs(tags) do out[#out + 1] = be(1, tag) .. be(4, #value[tag]) .. value[tag] end
    elseif kind == 'selector' then
      -- A name (kind 1) or a 1-based index (kind 2).
      if type(value) == 'number' then out[#out + 1] = '\2' .. be(4, value)
      elseif type(value) == 'string' then out[#out + 1] = '\1' .. be(4, #value) .. value
      else error('a selector is a name (string) or a 1-based index (number), not ' .. tostring(value)) end
    else error('unknown field kind ' .. kind) end
    return
  end
  local tag = kind[1]
  if tag == 'list' then
    local items = value or {}
    out[#out + 1] = be(4, #items)
    for _, item in ipairs(items) do write(out, kind[2], item) end
  elseif tag == 'struct' then write_fields(out, kind[2], value or {})
  elseif tag == 'optional' then
    out[#out + 1] = value and '\1' or '\0'
    if value then write_fields(out, kind[2], value) end
  elseif tag == 'range' then write(out, kind[2], value)
  elseif tag == 'tail' then
    if value and value ~= 0 then write(out, kind[2], value) end
  else error('unknown field kind ' .. tostring(tag)) end
end

write_fields = function(out, fields, values)
  for _, f in ipairs(fields) do
    local name, kind = f[1], f[2]
    if type(kind) == 'table' and kind[1] == 'if_flag' then
      if math.floor((values.flags or 0) / kind[2]) % 2 == 1 then write_fields(out, kind[3], values[name] or {}) end
    else
      write(out, kind, values[name])
    end
  end
end

-- The payload of message `t` (a number or a name) from its fields. Missing integers are 0,
-- missing strings empty ("0 means none").
function M.encode_payload(t, fields)
  if type(t) == 'string' then t = assert(M.TYPES[t], 'no message named ' .. t) end
  local m = assert(M.MESSAGES[t], ('no message type 0x%02x'):format(t))
  local out = {}
  write_fields(out, m[2], fields or {})
  return concat(out)
end

-- Header + an already encoded payload.
function M.frame(t, id, payload)
  payload = payload or ''
  return be(4, M.MIN_LENGTH + #payload) .. be(1, t) .. be(4, id) .. payload
end

-- A whole frame of message `t` (a number or a name) with request id `id`.
function M.encode(t, id, fields)
  if type(t) == 'string' then t = assert(M.TYPES[t], 'no message named ' .. t) end
  return M.frame(t, id, M.encode_payload(t, fields))
end

---------------------------------------------------------------------------
-- Decoding

local MIN_SIZE = { u8 = 1, bool = 1, format = 1, u16 = 2, u32 = 4, u64 = 8, i64 = 8, string = 4, blob = 4, selector = 5,
  opt_selector = 1, extensions = 0 }

local function min_size(kind)
  if type(kind) == 'string' then return MIN_SIZE[kind] end
  if kind[1] == 'struct' then
    local n = 0
    for _, f in ipairs(kind[2]) do
      local k = f[2]
      if not (type(k) == 'table' and (k[1] == 'if_flag' or k[1] == 'tail')) then n = n + min_size(k) end
    end
    return n
  end
  if kind[1] == 'range' then return min_size(kind[2]) end
  return 1
end

local Reader = {}
Reader.__index = Reader

local function reader(data) return setmetatable({ data = data, pos = 1 }, Reader) end

function Reader:remaining() return #self.data - self.pos + 1 end

function Reader:take(n)
  if n > self:remaining() then
    malformed(('payload ends early (wanted %d bytes at offset %d of %d)'):format(n, self.pos - 1, #self.data))
  end
  local s = self.data:sub(self.pos, self.pos + n - 1)
  self.pos = self.pos + n
  return s
end

function Reader:uint(n)
  if n > self:remaining() then
    malformed(('payload ends early (wanted %d bytes at offset %d of %d)'):format(n, self.pos - 1, #self.data))
  end
  local v = 0
  for i = self.pos, self.pos + n - 1 do v = v * 256 + byte(self.data, i) end
  self.pos = self.pos + n
  return v
end

local read_fields

local function read(r, kind)
  if type(kind) == 'string' then
    if kind == 'u8' or kind == 'format' then return r:uint(1)
    elseif kind == 'u16' then return r:uint(2)
    elseif kind == 'u32' then return r:uint(4)
    elseif kind == 'u64' then return r:uint(8)
    elseif kind == 'i64' then
      local hi, lo = r:uint(4), r:uint(4)
      if hi >= 2147483648 then hi = hi - 4294967296 end
      return hi * 4294967296 + lo
    elseif kind == 'bool' then
      local v = r:uint(1)
      if v > 1 then malformed('bool byte ' .. v) end
      return v == 1
    elseif kind == 'string' then
      local s = r:take(r:uint(4))
      if not M.valid_utf8(s) then malformed('string is not UTF-8') end
      return s
    elseif kind == 'blob' then return r:take(r:uint(4))
    elseif kind == 'opt_selector' then
      if r:remaining() > 0 and byte(r.data, r.pos) == 0 then
        r.pos = r.pos + 1
        return nil
      end
      return read(r, 'selector')
    elseif kind == 'extensions' then
      -- To the end of the payload; a tag this client does not know is kept, never an error.
      local area = {}
      while r:remaining() > 0 do
        local tag = r:uint(1)
        if area[tag] then malformed('extension ' .. tag .. ' given twice') end
        area[tag] = r:take(r:uint(4))
      end
      return area
    elseif kind == 'selector' then
      local tag = r:uint(1)
      if tag == 1 then return read(r, 'string') end
      if tag == 2 then return r:uint(4) end
      malformed('selector kind ' .. tag)
    end
    error('unknown field kind ' .. kind)
  end
  local tag = kind[1]
  if tag == 'list' then
    local n = r:uint(4)
    -- A count that cannot fit is refused before anything is allocated.
    if n * min_size(kind[2]) > r:remaining() then malformed(('list of %d elements cannot fit in the payload'):format(n)) end
    local items = {}
    for i = 1, n do items[i] = read(r, kind[2]) end
    return items
  elseif tag == 'struct' then return read_fields(r, kind[2])
  elseif tag == 'optional' then
    if read(r, 'bool') then return read_fields(r, kind[2]) end
    return nil
  elseif tag == 'range' then
    local v = read(r, kind[2])
    if v < kind[3] or v > kind[4] then fail(15, ('%d is outside %d…%d'):format(v, kind[3], kind[4])) end
    return v
  elseif tag == 'tail' then
    if r:remaining() > 0 then return read(r, kind[2]) end
    return 0
  end
  error('unknown field kind ' .. tostring(tag))
end

read_fields = function(r, fields)
  local values = {}
  for _, f in ipairs(fields) do
    local name, kind = f[1], f[2]
    if type(kind) == 'table' and kind[1] == 'if_flag' then
      if math.floor((values.flags or 0) / kind[2]) % 2 == 1 then values[name] = read_fields(r, kind[3]) end
    else
      values[name] = read(r, kind)
    end
  end
  return values
end

local function decode_payload(t, payload)
  local m = M.MESSAGES[t]
  if not m then fail(4, ('unknown message type 0x%02x'):format(t)) end
  local r = reader(payload)
  local values = read_fields(r, m[2])
  if r:remaining() ~= 0 then malformed(('%d unexpected bytes after the payload'):format(r:remaining())) end
  return values
end

-- The fields of message `t` from its payload, consumed exactly; or nil, err
-- (unknown_message_type for a type not in the table, malformed_frame for bad bytes).
function M.decode_payload(t, payload) return guarded(decode_payload, t, payload) end

---------------------------------------------------------------------------
-- Framing

local Framer = {}
Framer.__index = Framer

-- Reassembles frames from a byte stream. feed() bytes as they arrive; next() returns a
-- frame { type, id, payload, name, event }, or nil ("need more"), or nil, err for a length
-- below 5 or above `max_length` (checked before the body is buffered into one string).
function M.framer(max_length)
  return setmetatable({ max = max_length or M.MAX_REPLY_FRAME, chunks = {}, size = 0 }, Framer)
end

function Framer:feed(data)
  if #data == 0 then return end
  self.chunks[#self.chunks + 1] = data
  self.size = self.size + #data
end

function Framer:buffered() return self.size end

-- Joins the buffered chunks into one string (only when a whole frame is there, or for the prefix).
function Framer:joined()
  if #self.chunks > 1 then self.chunks = { concat(self.chunks) } end
  return self.chunks[1] or ''
end

local function next_frame(self)
  if self.size < 4 then return nil end
  local head = self.chunks[1]
  if #head < 4 then head = self:joined() end
  local length = ((byte(head, 1) * 256 + byte(head, 2)) * 256 + byte(head, 3)) * 256 + byte(head, 4)
  if length < M.MIN_LENGTH then malformed(('frame length %d is below the 5-byte header'):format(length)) end
  if length > self.max then
    fail(3, ('frame of %d bytes exceeds the maximum of %d bytes'):format(length, self.max))
  end
  if self.size < 4 + length then return nil end
  local buf = self:joined()
  local t = byte(buf, 5)
  local id = ((byte(buf, 6) * 256 + byte(buf, 7)) * 256 + byte(buf, 8)) * 256 + byte(buf, 9)
  local payload = buf:sub(10, 4 + length)
  local rest = buf:sub(5 + length)
  self.chunks = (#rest > 0) and { rest } or {}
  self.size = #rest
  return { type = t, id = id, payload = payload, name = M.message_name(t), event = t >= M.EVENT_BIT, size = 4 + length }
end

function Framer:next() return guarded(next_frame, self) end

-- One whole request frame as a server reads it: frame, fields; or nil, err. Reply and event
-- types are unknown_message_type, as they are to pickerd.
function M.decode_request(data)
  return guarded(function()
    local f = M.framer(M.MAX_REQUEST_FRAME)
    f:feed(data)
    local frame, err = f:next()
    if err then error(err, 0) end
    if not frame or f:buffered() > 0 then malformed('not exactly one frame') end
    local m = M.MESSAGES[frame.type]
    if not (m and m.request) then fail(4, ('0x%02x is not a request'):format(frame.type)) end
    return frame, decode_payload(frame.type, frame.payload)
  end)
end

-- An event frame as a table: { kind = name, type, id, fields } for a known one;
-- { kind = 'unknown', type, id, payload } for an event type this client does not know
-- (a newer server's), never an error. A known event with bad bytes gives nil, err.
function M.decode_event(frame)
  local m = M.MESSAGES[frame.type]
  if not m then return { kind = 'unknown', type = frame.type, id = frame.id, payload = frame.payload } end
  local fields, err = M.decode_payload(frame.type, frame.payload)
  if not fields then return nil, err end
  local ev = { kind = m[1], type = frame.type, id = frame.id, fields = fields }
  if frame.type == 0x80 then ev.change = M.change_name(fields.change) end
  return ev
end

return M