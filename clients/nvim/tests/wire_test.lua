-- The Lua codec against every hex block of docs/PROTOCOL.md, plus framing and unknown
-- values. No daemon needed. Environment: PICKER_TEST_PROTOCOL_MD (the path of PROTOCOL.md).
local h = dofile(vim.env.PICKER_TEST_DIR .. '/harness.lua')
local wire = require('picker.wire')
local test, eq, truthy, fail = h.test, h.eq, h.truthy, h.fail

-- Every `<!-- vector|refused: TITLE -->` block: { kind, title, bytes }. `#` starts a comment.
local function vectors()
  local path = assert(vim.env.PICKER_TEST_PROTOCOL_MD, 'PICKER_TEST_PROTOCOL_MD not set')
  local text = table.concat(vim.fn.readfile(path, 'b'), '\n')
  local out = {}
  for kind, title, body in text:gmatch('<!%-%- (%a+): ([^\n]-) %-%->%s*```hex\n(.-)```') do
    if kind == 'vector' or kind == 'refused' or kind == 'extended' then
      local bytes = {}
      for line in (body .. '\n'):gmatch('(.-)\n') do
        for hex in (line:gsub('#.*$', '')):gmatch('%x%x') do bytes[#bytes + 1] = string.char(tonumber(hex, 16)) end
      end
      out[#out + 1] = { kind = kind, title = title, bytes = table.concat(bytes) }
    end
  end
  return out
end

local function of_kind(kind)
  return vim.tbl_filter(function(v) return v.kind == kind end, vectors())
end

test('every vector of PROTOCOL.md decodes to its named message and re-encodes byte for byte', function()
  local all = of_kind('vector')
  truthy(#all >= 60, 'at least 60 vectors, found ' .. #all)
  local seen = {}
  for _, v in ipairs(all) do
    local name, id = v.title:match('^(%S+) id=(%d+)')
    local f = wire.framer()
    f:feed(v.bytes)
    local frame, err = f:next()
    if not frame then fail(v.title .. ': ' .. vim.inspect(err)) end
    eq(name, frame.name, v.title .. ': message name')
    eq(tonumber(id), frame.id, v.title .. ': id')
    eq(0, f:buffered(), v.title .. ': whole frame consumed')
    local fields, derr = wire.decode_payload(frame.type, frame.payload)
    if not fields then fail(v.title .. ': ' .. vim.inspect(derr)) end
    local again = wire.encode(frame.type, frame.id, fields)
    if again ~= v.bytes then fail(v.title .. ': re-encoded bytes differ') end
    seen[frame.type] = true
  end
  for t, m in pairs(wire.MESSAGES) do
    if not seen[t] then fail(('no vector for %s (0x%02x)'):format(m[1], t)) end
  end
end)

test('photoInfo\'s raw_companion blocks decode with the entry and re-encode byte for byte', function()
  local expected = { ['photoInfo id=70 asking for raw_companion'] = '',
    ['photoInfoReply id=70 with raw_companion'] = '2024/Kyoto/IMG_2.CR2' }
  local n = 0
  for _, v in ipairs(of_kind('extended')) do
    local want = expected[v.title]
    if want then
      n = n + 1
      local f = wire.framer()
      f:feed(v.bytes)
      local frame, err = f:next()
      if not frame then fail(v.title .. ': ' .. vim.inspect(err)) end
      eq(v.title:match('^(%S+)'), frame.name, v.title .. ': message name')
      local fields, derr = wire.decode_payload(frame.type, frame.payload)
      if not fields then fail(v.title .. ': ' .. vim.inspect(derr)) end
      eq(want, fields.extensions[wire.RAW_COMPANION_TAG], v.title .. ': raw_companion')
      if wire.encode(frame.type, frame.id, fields) ~= v.bytes then fail(v.title .. ': re-encoded bytes differ') end
    end
  end
  eq(2, n, 'raw_companion blocks in PROTOCOL.md')
end)

test('every refused block of PROTOCOL.md fails with the error it names', function()
  local all = of_kind('refused')
  truthy(#all >= 5, 'at least 5 refused blocks, found ' .. #all)
  for _, v in ipairs(all) do
    local want = v.title:match('^(%S+)')
    local frame, err = wire.decode_request(v.bytes)
    if frame then fail(v.title .. ': decoded, but should be refused') end
    eq(want, err.name, v.title)
    eq(wire.ERROR_CODES[want], err.code, v.title .. ': code')
  end
end)

test('frames fed one byte at a time come out whole, and many frames in one read all come out', function()
  local all = of_kind('vector')
  local stream = table.concat(vim.tbl_map(function(v) return v.bytes end, all))
  local f = wire.framer()
  local got = {}
  for i = 1, #stream do
    f:feed(stream:sub(i, i))
    local frame = f:next()
    if frame then got[#got + 1] = frame end
  end
  eq(#all, #got, 'frames from single bytes')
  f = wire.framer()
  f:feed(stream)
  local n = 0
  while f:next() do n = n + 1 end
  eq(#all, n, 'frames from one read')
  eq(0, f:buffered(), 'nothing left over')
end)

test('a reply length over the maximum is refused from its 4-byte prefix', function()
  local f = wire.framer(1000)
  f:feed(wire.u32(1001))
  local frame, err = f:next()
  eq(nil, frame, 'no frame')
  eq('frame_too_large', err.name, 'error')
  f = wire.framer()
  f:feed(wire.u32(4) .. '\4\0\0\0')
  frame, err = f:next()
  eq('malformed_frame', err.name, 'length below 5')
end)

test('truncated payloads and trailing bytes are malformed_frame', function()
  local p = wire.encode_payload('sessionShow', { session = 'main' })
  local _, err = wire.decode_payload(0x14, p:sub(1, -2))
  eq('malformed_frame', err.name, 'short')
  _, err = wire.decode_payload(0x14, p .. 'x')
  eq('malformed_frame', err.name, 'trailing')
  _, err = wire.decode_payload(0x43, wire.u16(10) .. wire.u32(4294967295))
  eq('malformed_frame', err.name, 'a list count that cannot fit')
end)

test('an unknown event kind from a newer server is kept raw and decoding goes on', function()
  local f = wire.framer()
  local newer = wire.frame(0x9a, 30, '\1\2\3')
  local state = wire.encode('sessionEvent', 30, { change = 42, name = 's', width = 100 })
  local after = wire.encode('pong', 7, { server_version = '9.9' })
  f:feed(newer .. state .. after)
  local a = f:next()
  eq({ true, 'type-0x9a' }, { a.event, a.name }, 'unknown event frame')
  local ev = wire.decode_event(a)
  eq({ kind = 'unknown', type = 0x9a, id = 30, payload = '\1\2\3' }, ev, 'kept raw')
  local b = wire.decode_event(f:next())
  eq({ 'sessionEvent', 'change-42', 's', 100 }, { b.kind, b.change, b.fields.name, b.fields.width }, 'unknown change')
  local c = f:next()
  eq({ 'pong', '9.9' }, { c.name, wire.decode_payload(c.type, c.payload).server_version }, 'the next frame')
end)

test('unknown error codes keep their number and read as internal', function()
  eq('selection_full', wire.error_name(16), 'known')
  eq('internal', wire.error_name(4242), 'unknown')
  local e = wire.decode_payload(0x03, wire.u16(4242) .. wire.string('new'))
  eq({ code = 4242, message = 'new' }, e, 'decoded')
end)

test('values a newer server adds survive decode and re-encode byte for byte (PROTOCOL.md, Open values)', function()
  local row = { index = 1, name = 'a.new', path = 'a.new', width = 2, height = 3, bytes = 4, format = 77, date = 5,
    date_source = 9 }
  local newer = {
    { 0x03, { code = 4242, message = 'a newer code' } },
    { 0x02, { version = 1, server_version = 'pickerd 9', max_request_frame = 1, max_reply_frame = 2,
      input_formats = { 1, 77 }, output_formats = { 2, 42 } } },
    { 0x31, { format = 42, width = 1, height = 1, data = '\1' } },
    { 0x2f, { album = 'All Photos', sort = 9, total = 1, offset = 0, photos = { row } } },
    { 0x07, { root = '/p', album_count = 1, photo_count = 1, scan_state = 5, scanned_at = 0, skipped_count = 0 } },
    { 0x09, { state = 5, files_done = 1, files_expected = 2, elapsed_ms = 3 } },
    { 0x80, { change = 42, name = 's', width = 100 } },
  }
  for _, m in ipairs(newer) do
    local bytes = wire.encode_payload(m[1], m[2])
    local back = assert(wire.decode_payload(m[1], bytes))
    for k, v in pairs(m[2]) do
      if type(v) ~= 'table' then eq(v, back[k], ('0x%02x %s'):format(m[1], k)) end
    end
    eq(bytes, wire.encode_payload(m[1], back), ('0x%02x re-encodes'):format(m[1]))
  end
end)

test('strings are UTF-8 counted in bytes, i64 is signed, u64 is exact to 2^53', function()
  local p = wire.encode_payload('sessionShow', { session = '旅行/京都' })
  eq(4 + 13, #p, 'bytes')
  eq('旅行/京都', wire.decode_payload(0x14, p).session, 'round trip')
  local info = wire.encode_payload(0x07, { root = '/', scanned_at = -5 })
  eq(-5, wire.decode_payload(0x07, info).scanned_at, 'negative i64')
  local row = { index = 1, name = 'a', path = 'a', bytes = 2 ^ 53 - 1, format = 1, date = -86400 }
  local back = wire.decode_payload(0x25, wire.encode_payload(0x25, { album = 'x', photos = { row } })).photos[1]
  eq({ 2 ^ 53 - 1, -86400 }, { back.bytes, back.date }, 'u64 and i64')
  for _, bad in ipairs({ '\xc0\xaf', '\xed\xa0\x80', '\xf4\x90\x80\x80', '\xe6\x97', '\xff' }) do
    truthy(not wire.valid_utf8(bad), 'invalid UTF-8 accepted: ' .. vim.inspect(bad))
  end
end)

test('getImage with cells encodes the symbols request of the terminal formats', function()
  local bytes = wire.encode('getImage', 60, { session = 'main', format = wire.FORMAT_CODES.symbols, flags = 2,
    cells = { cols = 80, rows = 24 } })
  local frame, fields = wire.decode_request(bytes)
  eq({ 'getImage', 7, 2, 80, 24 }, { frame.name, fields.format, fields.flags, fields.cells.cols, fields.cells.rows },
    'decoded')
end)

-- The tables against the Swift declaration (issue 22 item 4): docs/protocol-tables.json, which
-- DeclarationTableTests proves equal to the declaration. A drift on either side fails here.
test('messages, error codes, formats and session changes are the Swift declaration\'s', function()
  local path = vim.env.PICKER_TEST_PROTOCOL_MD:gsub('PROTOCOL%.md$', 'protocol-tables.json')
  local declared = vim.fn.json_decode(table.concat(vim.fn.readfile(path), '\n'))
  local function numbered(t)
    local out = {}
    for k, v in pairs(t) do out[tonumber(k)] = v end
    return out
  end
  local names, requests, declared_requests = {}, {}, {}
  for t, m in pairs(wire.MESSAGES) do
    names[t] = m[1]
    if m.request then requests[t] = true end
  end
  local declared_names = {}
  for t, m in pairs(numbered(declared.messages)) do
    declared_names[t] = m.name
    if m.direction == 'request' then declared_requests[t] = true end
  end
  eq(declared_names, names, 'message names')
  eq(declared_requests, requests, 'which messages are requests')
  eq(numbered(declared.errors), wire.ERRORS, 'error codes')
  eq(numbered(declared.photo_formats), wire.PHOTO_FORMATS, 'photo formats')
  eq(numbered(declared.output_formats), wire.FORMATS, 'output formats')
  eq(numbered(declared.session_changes), wire.SESSION_CHANGES, 'session changes')
end)

test('a field a newer server adds in the extension area is kept; an older server sends none', function()
  local fields = { path = 'A/p.jpg', name = 'p.jpg', format = 1, width = 2, height = 3, bytes = 4, date = 5,
    date_source = 1, gps = true }
  local older = wire.encode(0x33, 7, fields)
  fields.extensions = { [9] = '\1\2' }
  local newer = wire.encode(0x33, 7, fields)
  eq(older:sub(10) .. '\9\0\0\0\2\1\2', newer:sub(10), 'the entry follows the last field')
  for _, case in ipairs({ { older, {} }, { newer, { [9] = '\1\2' } } }) do
    local f = wire.framer()
    f:feed(case[1])
    local frame = assert(f:next())
    local decoded = assert(wire.decode_payload(frame.type, frame.payload))
    eq(case[2], decoded.extensions, 'extensions')
    eq('A/p.jpg', decoded.path, 'path')
    eq(case[1], wire.encode(frame.type, frame.id, decoded), 'kept byte for byte')
  end
end)

h.main('nvim wire tests', function() end)
