-- The plugin's commands and its connection (picker.conn) against the live daemon and a fake newer one.
-- Loaded by live_tests.lua with picker_support.lua's table as its environment (S, h, api,
-- picker, test, eq, wait, ctl, lines, ...).
local wire = require('picker.wire')
local conn = require('picker.conn')

test('commands are defined by plugin/picker.lua', function()
  vim.cmd('runtime! plugin/picker.lua')
  for _, c in ipairs({ 'PickerOpen', 'PickerClose', 'PickerInsert', 'PickerClear' }) do
    eq(2, vim.fn.exists(':' .. c), 'command ' .. c)
  end
end)

test('an unreachable daemon gives a clear error with a hint in Neovim terms', function()
  picker.setup({ socket = '/tmp/picker-nvim-test-no-such.sock', session = SESSION })
  S.notes = {}
  vim.cmd('PickerOpen')
  wait('an error notification', function() return #S.notes > 0 end)
  truthy(S.notes[1].msg:find('no pickerd socket at /tmp/picker-nvim-test-no-such.sock', 1, true), S.notes[1].msg)
  truthy(S.notes[1].msg:find('pickerd --library DIR', 1, true), 'hint: ' .. S.notes[1].msg)
  eq(nil, picker.state(), 'no picker open')
end)

test(':checkhealth picker reports the socket, the daemon\'s version, the session and graphics', function()
  picker.setup({ socket = SOCKET, session = SESSION })
  vim.cmd('checkhealth picker')
  local text = table.concat(lines(0), '\n')
  vim.cmd('tabclose')
  truthy(text:find('socket found: ' .. SOCKET, 1, true), text)
  truthy(text:find('pickerd %d+%.%d+[^ ]* answers'), 'daemon version: ' .. text)
  truthy(text:find('session: ' .. SESSION, 1, true), text)
  truthy(text:find('coloured symbols', 1, true), text)
  truthy(not text:find('ERROR', 1, true), text)
  picker.setup({ socket = '/tmp/picker-nvim-test-no-such.sock', session = SESSION })
  vim.cmd('checkhealth picker')
  text = table.concat(lines(0), '\n')
  vim.cmd('tabclose')
  truthy(text:find('no socket at /tmp/picker-nvim-test-no-such.sock', 1, true), text)
end)

test('pipelined requests on one connection are answered by id, errors carry code and hint', function()
  local c = conn.open({ socket = SOCKET })
  local order, replies = {}, {}
  local ids = {
    c:request('ping', {}, function(r) order[#order + 1] = 'ping'; replies.ping = r end),
    c:request('albums', {}, function(r) order[#order + 1] = 'albums'; replies.albums = r end),
    c:request('status', { session = 'nvim-test-none' }, function(_, e) order[#order + 1] = 'status'; replies.err = e end),
    c:request('libraryInfo', {}, function(r) order[#order + 1] = 'libraryInfo'; replies.info = r end),
  }
  eq({ 2, 3, 4, 5 }, ids, 'ids after the hello (1)')
  wait('four replies', function() return #order == 4 end)
  truthy(replies.ping.server_version ~= '', 'pong')
  eq(LIB, replies.info.root, 'library root')
  eq('All Photos', replies.albums.albums[1].name, 'first album')
  eq({ 10, 'no_such_session' }, { replies.err.code, replies.err.name }, 'error reply')
  truthy(require('picker.hints').text(replies.err):find(':PickerOpen', 1, true), 'hint names :PickerOpen')
  truthy(c.server and c.server.version == 1, 'helloReply kept')
  c:close()
  local _, err = await('a request after close', function(done) c:request('ping', {}, done) end)
  eq('disconnected', err.name, 'closed connection')
end)

test('photoInfo describes a photo from its header: the current one, one by index, nothing selected', function()
  local c = conn.open({ socket = SOCKET })
  local function call(name, fields)
    return await(name, function(done) c:request(name, fields, done) end)
  end
  local s = 'nvim-info'
  call('sessionNew', { name = s, width = 300 })
  call('selectAlbum', { session = s, album = 'Landscapes' })
  local _, none = call('photoInfo', { session = s })
  eq('nothing_selected', none and none.name, 'no current photo')
  call('selectPhoto', { session = s, photo = 1 })
  local info = assert(call('photoInfo', { session = s }))
  local second = assert(call('photoInfo', { session = s, photo = 2 }))
  truthy(info.path:find('^Landscapes/'), 'path ' .. tostring(info.path))
  eq('jpeg', wire.PHOTO_FORMATS[info.format], 'format')
  truthy(info.width > 0 and info.bytes > 0, 'size and bytes')
  eq('boolean', type(info.gps), 'gps is yes/no')
  eq({}, info.extensions, 'no extensions')
  truthy(second.path ~= info.path, 'photo 2 is another photo')
  call('sessionClose', { session = s })
  c:close()
end)

test('an unknown event kind from a newer server does not break decoding', function()
  -- A scripted peer on a real socket stands in for a newer pickerd: it answers hello, sends an
  -- event type this client does not know and a session event with a new change value, then a pong.
  local uv = vim.loop
  local path = vim.fn.tempname() .. '.sock'
  local server = uv.new_pipe(false)
  assert(server:bind(path))
  local state = { name = 'newer', title = 'T', width = 100, max_selection = 10 }
  server:listen(1, function()
    local peer = uv.new_pipe(false)
    server:accept(peer)
    local f = wire.framer(wire.MAX_REQUEST_FRAME)
    peer:read_start(function(_, data)
      if not data then peer:close() return end
      f:feed(data)
      while true do
        local frame = f:next()
        if not frame then break end
        if frame.name == 'hello' then
          peer:write(wire.encode('helloReply', 1, { version = 1, server_version = '9.0', max_request_frame = 1048576,
            max_reply_frame = 268435456, input_formats = { 1, 42 }, output_formats = { 7, 99 } }))
        elseif frame.name == 'subscribe' then
          peer:write(wire.encode('subscribed', frame.id, { session = 'newer', flags = 1 }))
          peer:write(wire.frame(0x9a, frame.id, '\0\1\2\3'))
          peer:write(wire.encode('sessionEvent', frame.id, vim.tbl_extend('force', state, { change = 77 })))
          peer:write(wire.encode('error', frame.id + 1000, { code = 4242, message = 'a newer error' }))
        elseif frame.name == 'ping' then
          peer:write(wire.encode('error', frame.id, { code = 4242, message = 'a newer error' }))
          peer:write(wire.encode('pong', frame.id + 1, { server_version = '9.0' }))
        end
      end
    end)
  end)
  local events = {}
  local c = conn.open({ socket = path, on_event = function(ev) events[#events + 1] = ev end })
  c:subscribe('newer', true)
  local _, err = await('the ping answered with an unknown error code', function(done) c:request('ping', {}, done) end)
  eq({ 4242, 'internal', 'a newer error' }, { err.code, err.name, err.message }, 'unknown code kept')
  eq({ 1, 42 }, c.server.input_formats, 'unknown formats kept as numbers')
  wait('two events', function() return #events == 2 end)
  eq({ 'unknown', 0x9a, '\0\1\2\3' }, { events[1].kind, events[1].type, events[1].payload }, 'raw unknown event')
  eq({ 'sessionEvent', 'change-77', 'newer' }, { events[2].kind, events[2].change, events[2].fields.name }, 'new change')
  truthy(c:is_open(), 'the connection stays open')
  c:close()
  server:close()
  os.remove(path)
end)
