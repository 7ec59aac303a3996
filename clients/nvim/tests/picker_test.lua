-- Headless test of the picker plugin against a live pickerd.
-- Run by run-tests.sh: nvim --headless -u NONE --noplugin --cmd 'set rtp^=DIR' -c 'luafile THIS'
-- Environment: PICKER_TEST_PICKERCTL, PICKER_TEST_SOCKET, PICKER_TEST_LIBRARY (real path).
local api = vim.api
local env = vim.env
local PICKERCTL = assert(env.PICKER_TEST_PICKERCTL, 'PICKER_TEST_PICKERCTL not set')
local SOCKET = assert(env.PICKER_TEST_SOCKET, 'PICKER_TEST_SOCKET not set')
local LIB = assert(env.PICKER_TEST_LIBRARY, 'PICKER_TEST_LIBRARY not set')
local SESSION = env.PICKER_TEST_SESSION or 'nvim-test'

local h = dofile(vim.env.PICKER_TEST_DIR .. '/harness.lua')
local fail, eq, wait, test, truthy = h.fail, h.eq, h.wait, h.test, h.truthy
local wire = require('picker.wire')
local conn = require('picker.conn')

local notes = {}
vim.notify = function(msg, level) notes[#notes + 1] = { msg = msg, level = level } end

local function lines(buf) return api.nvim_buf_get_lines(buf, 0, -1, false) end

local function keys(k)
  api.nvim_feedkeys(api.nvim_replace_termcodes(k, true, false, true), 'mx', false)
end

local function ctl(args)
  local cmd = { PICKERCTL, '--socket', SOCKET, '--session', SESSION, '--json' }
  vim.list_extend(cmd, args)
  local out = vim.fn.system(cmd)
  if vim.v.shell_error ~= 0 then fail('pickerctl ' .. table.concat(args, ' ') .. ': ' .. out) end
  return out
end

-- The session as the daemon has it (JSON null as nil).
local function status()
  return vim.tbl_map(function(v) if v == vim.NIL then return nil end return v end,
    vim.fn.json_decode(ctl({ 'status' })))
end

local function find_line(buf, pat)
  for i, l in ipairs(lines(buf)) do
    if l:find(pat, 1, true) then return i, l end
  end
  return nil
end

local function line_has(buf, pat, sub)
  local _, l = find_line(buf, pat)
  return l ~= nil and l:find(sub, 1, true) ~= nil
end

local picker = require('picker')

test('commands are defined by plugin/picker.lua', function()
  vim.cmd('runtime! plugin/picker.lua')
  for _, c in ipairs({ 'PickerOpen', 'PickerClose', 'PickerInsert', 'PickerClear' }) do
    eq(2, vim.fn.exists(':' .. c), 'command ' .. c)
  end
end)

test('an unreachable daemon gives a clear error with a hint in Neovim terms', function()
  picker.setup({ socket = '/tmp/picker-nvim-test-no-such.sock', session = SESSION })
  notes = {}
  vim.cmd('PickerOpen')
  wait('an error notification', function() return #notes > 0 end)
  truthy(notes[1].msg:find('no pickerd socket at /tmp/picker-nvim-test-no-such.sock', 1, true), notes[1].msg)
  truthy(notes[1].msg:find('pickerd --library DIR', 1, true), 'hint: ' .. notes[1].msg)
  eq(nil, picker.state(), 'no picker open')
end)

-- Runs fn(done) and waits until done(...) was called; its arguments.
local function await(what, fn)
  local got
  fn(function(...) got = { ... } end)
  wait(what, function() return got ~= nil end)
  return unpack(got)
end

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

local u
test(':PickerOpen creates the session and opens three panes: albums, photos, the photo', function()
  picker.setup({
    socket = SOCKET, session = SESSION, width = 640, height = 480,
    formats = { markdown = '![](%s)', lua = function(p) return ('-- %s/%s'):format(p.album, p.name) end },
  })
  vim.cmd('PickerOpen')
  wait('the picker', function() return picker.state() ~= nil end)
  u = picker.state()
  wait('the album list', function() return find_line(u.bufs.albums, 'Portraits') ~= nil end)
  for _, name in ipairs({ 'header', 'albums', 'photos', 'image' }) do
    local cfg = api.nvim_win_get_config(u.wins[name])
    eq('editor', cfg.relative, name .. ' window is floating')
  end
  local a, p, i = api.nvim_win_get_position(u.wins.albums), api.nvim_win_get_position(u.wins.photos),
    api.nvim_win_get_position(u.wins.image)
  truthy(a[2] < p[2] and p[2] < i[2] and a[1] == p[1] and p[1] == i[1], 'album | photo | image, side by side')
  eq('terminal', api.nvim_buf_get_option(u.bufs.image, 'buftype'), 'the image pane is a terminal buffer')
  eq(u.wins.albums, api.nvim_get_current_win(), 'focus on the album list')
  eq('  All Photos', lines(u.bufs.albums)[1]:sub(1, 12), 'album 1')
  eq(3, #lines(u.bufs.albums), 'three albums (All Photos, Landscapes, Portraits)')
  eq({ '(select an album)' }, lines(u.bufs.photos), 'photo pane before an album is chosen')
  local show = vim.fn.json_decode(ctl({ 'session', 'show' }))
  eq({ 640, 480 }, { show.width, show.height }, 'pane size from setup{}')
end)

test('<CR> on an album selects it and lists its photos', function()
  local row = find_line(u.bufs.albums, 'Landscapes')
  api.nvim_win_set_cursor(u.wins.albums, { row, 0 })
  keys('<CR>')
  wait('the Landscapes photos', function() return find_line(u.bufs.photos, 'Landscape_8.jpg') ~= nil end)
  eq(u.wins.photos, api.nvim_get_current_win(), 'focus moves to the photo list')
  wait('album marker', function() return lines(u.bufs.albums)[row]:sub(1, 2) == '> ' end)
  if not lines(u.bufs.header)[2]:find('album: Landscapes', 1, true) then
    fail('header: ' .. vim.inspect(lines(u.bufs.header)))
  end
end)

-- The terminal buffer's text once the terminal has drawn what was sent: the rows with a symbol.
local function drawn_rows(buf)
  return vim.tbl_filter(function(l) return l:match('%S') ~= nil end, lines(buf))
end

test('moving the cursor in the photo list changes the session\'s current photo', function()
  eq(u.wins.photos, api.nvim_get_current_win(), 'in the photo list')
  eq(nil, status().photo, 'no current photo before the cursor moves')
  keys('j')
  wait('photo 2 current in the daemon', function() return status().photo == 'Landscape_6.jpg' end)
  wait('current photo marker', function() return lines(u.bufs.photos)[2]:sub(1, 2) == '> ' end)
  wait('message in header', function() return lines(u.bufs.header)[1]:find('1800x1200 px', 1, true) ~= nil end)
end)

test('the image pane shows the daemon\'s symbols for the current photo, sized to the pane', function()
  wait('an image', function() return u.images > 0 and u.image.sent ~= nil end)
  local sent = u.image.sent
  truthy(sent:find('38;2;%d+;%d+;%d+') and sent:find('48;2;%d+;%d+;%d+'), '24-bit colours in what was sent')
  truthy(sent:sub(-4) == '\27[0m', 'ends in an SGR reset')
  local cols, rows = u.image:cells()
  local n = select(2, sent:gsub('\n', '\n')) + 1
  truthy(n <= rows and n >= 1, ('%d rows of symbols for a pane of %d'):format(n, rows))
  eq({ cols, rows }, u.image.asked, 'cells asked for: the pane\'s size')
  wait('the terminal buffer to draw the symbols', function() return #drawn_rows(u.bufs.image) >= n - 1 and n > 1 end)
  for _, l in ipairs(drawn_rows(u.bufs.image)) do
    truthy(vim.fn.strdisplaywidth(l) <= cols, 'a row wider than the pane: ' .. l)
  end
end)

test('the picture follows the cursor: another photo sends other symbols', function()
  local before, sends = u.image.sent, u.image.sends
  keys('k')
  wait('photo 1 current in the daemon', function() return status().photo == 'Landscape_1.jpg' end)
  wait('a new picture', function() return u.image.sends > sends and u.image.sent ~= before end)
  keys('j')
  wait('photo 2 again', function() return status().photo == 'Landscape_6.jpg' end)
  wait('the picture of photo 2 again', function() return u.image.sent == before end)
end)

test('a resized editor asks for the picture in the new pane size', function()
  local cols0 = u.image:cells()
  local sends = u.image.sends
  vim.o.columns = vim.o.columns + 40
  -- A headless nvim has no UI to report the resize: fire the event the UI would cause.
  vim.cmd('doautocmd VimResized')
  local cols1 = u.image:cells()
  truthy(cols1 > cols0, ('the image pane grew (%d -> %d cells)'):format(cols0, cols1))
  wait('a picture for the new size', function() return u.image.sends > sends and u.image.asked[1] == cols1 end)
  vim.o.columns = vim.o.columns - 40
  vim.cmd('doautocmd VimResized')
  wait('back to the first size', function() return u.image.asked[1] == cols0 end)
end)

test('<Tab> picks photos', function()
  api.nvim_win_set_cursor(u.wins.photos, { 1, 0 })
  keys('<Tab>')
  eq(2, api.nvim_win_get_cursor(u.wins.photos)[1], 'cursor moved down after <Tab>')
  api.nvim_win_set_cursor(u.wins.photos, { 3, 0 })
  keys('<Tab>')
  wait('pick marks', function()
    return line_has(u.bufs.photos, 'Landscape_1.jpg', '[1]') and line_has(u.bufs.photos, 'Landscape_8.jpg', '[2]')
  end)
  if not line_has(u.bufs.photos, 'Landscape_6.jpg', '[ ]') then fail('Landscape_6 should not be picked') end
  wait('pick count in header', function() return lines(u.bufs.header)[2]:find('picks 2/10', 1, true) ~= nil end)
end)

test('the window follows events from other clients', function()
  -- Events from our own actions prove the watch has subscribed.
  wait('events from the actions above', function() return u.events > 0 end)
  local before = u.events
  ctl({ 'select-album', 'Portraits' })
  wait('the Portraits photos', function() return find_line(u.bufs.photos, 'hopper_reference.webp') ~= nil end)
  if u.events <= before then fail('no event was received') end
  truthy(u.client.conn.subscription ~= nil, 'subscribed on the picker\'s own connection')
  wait('album marker', function() return line_has(u.bufs.albums, 'Portraits', '> ') end)
  ctl({ 'toggle', 'hopper_orientation_6.webp' })
  wait('external pick shown', function() return line_has(u.bufs.photos, 'hopper_orientation_6.webp', '[3]') end)
  local sends = u.image.sends
  ctl({ 'select-photo', 'hopper_reference.webp' })
  wait('external current photo', function() return line_has(u.bufs.photos, 'hopper_reference.webp', '> ') end)
  wait('the picture follows the event', function() return u.image.sends > sends end)
  local row = find_line(u.bufs.photos, 'hopper_reference.webp')
  wait('the cursor follows the event', function() return api.nvim_win_get_cursor(u.wins.photos)[1] == row end)
  ctl({ 'session', 'resize', '--width', '500', '--height', '400' })
  wait('pane size in header', function() return lines(u.bufs.header)[2]:find('pane 500x400', 1, true) ~= nil end)
end)

test('<Tab> un-picks and picks in the followed album', function()
  local row = find_line(u.bufs.photos, 'hopper_orientation_6.webp')
  api.nvim_win_set_cursor(u.wins.photos, { row, 0 })
  keys('<Tab>')
  wait('un-pick', function() return line_has(u.bufs.photos, 'hopper_orientation_6.webp', '[ ]') end)
  row = find_line(u.bufs.photos, 'hopper_reference.webp')
  api.nvim_win_set_cursor(u.wins.photos, { row, 0 })
  keys('<Tab>')
  wait('pick', function() return line_has(u.bufs.photos, 'hopper_reference.webp', '[3]') end)
end)

test('library changes reload the lists', function()
  local src = LIB .. '/Landscapes/Landscape_6.jpg'
  local dst = LIB .. '/Portraits/zz_added.jpg'
  assert(vim.loop.fs_copyfile(src, dst), 'copy into the library')
  -- The daemon rescans when a request finds its listing older than 5 s.
  local ok = vim.wait(15000, function()
    vim.fn.system({ PICKERCTL, '--socket', SOCKET, 'library' })
    return vim.wait(500, function() return find_line(u.bufs.photos, 'zz_added.jpg') ~= nil end, 20)
  end, 10)
  if not ok then fail('the added photo never showed up: ' .. vim.inspect(lines(u.bufs.photos))) end
  wait('album count', function() return line_has(u.bufs.albums, 'Portraits', '3') end)
end)

test('in All Photos, a pick marks only its own photo, not another with the same file name', function()
  -- Landscapes/Landscape_1.jpg is pick 1; a same-named copy in Portraits is not picked.
  assert(vim.loop.fs_copyfile(LIB .. '/Landscapes/Landscape_1.jpg', LIB .. '/Portraits/Landscape_1.jpg'),
    'copy into the library')
  ctl({ 'select-album', 'All Photos' })
  local function rows(mark)
    local n = 0
    for _, l in ipairs(lines(u.bufs.photos)) do
      if l:find('Landscape_1.jpg', 1, true) and l:find(mark, 1, true) then n = n + 1 end
    end
    return n
  end
  local ok = vim.wait(15000, function()
    vim.fn.system({ PICKERCTL, '--socket', SOCKET, 'library' })
    return vim.wait(500, function() return rows('Landscape_1.jpg') == 2 end, 20)
  end, 10)
  if not ok then fail('the same-named copy never showed up: ' .. vim.inspect(lines(u.bufs.photos))) end
  wait('one mark', function() return rows('[1]') == 1 and rows('[ ]') == 1 end)
  for i, p in ipairs(u.photos) do
    if p.name == 'Landscape_1.jpg' then
      local want = p.path == 'Landscapes/Landscape_1.jpg' and '[1]' or '[ ]'
      if not lines(u.bufs.photos)[i]:find(want, 1, true) then
        fail(('row %d (%s) should show %s: %s'):format(i, tostring(p.path), want, lines(u.bufs.photos)[i]))
      end
    end
  end
end)

test('q closes the picker, its image buffer and its connection', function()
  local image_buf = u.bufs.image
  keys('q')
  eq(nil, picker.state(), 'picker state after q')
  for name, win in pairs(u.wins) do
    if api.nvim_win_is_valid(win) then fail(name .. ' window still open') end
  end
  eq(false, api.nvim_buf_is_valid(image_buf), 'image buffer gone')
  eq(false, u.client:is_open(), 'connection closed')
end)

test('closing any picker window with :close closes the whole picker and the image', function()
  vim.cmd('PickerOpen')
  wait('the picker', function() return picker.state() ~= nil end)
  local v = picker.state()
  ctl({ 'select-photo', '--index', '1' })
  wait('an image', function() return v.images > 0 end)
  api.nvim_set_current_win(v.wins.albums)
  vim.cmd('close')
  wait('the picker to close', function() return picker.state() == nil end)
  eq(false, api.nvim_buf_is_valid(v.bufs.image), 'image buffer gone')
  eq(false, api.nvim_win_is_valid(v.wins.image), 'image window gone')
end)

test('a lost daemon is shown in the header, and R reconnects to a new one', function()
  local pickerd = vim.fn.fnamemodify(PICKERCTL, ':h') .. '/pickerd'
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir .. '/state', 'p')
  local sock = dir .. '/s'
  local function start()
    local job = vim.fn.jobstart({ pickerd, '--library', LIB, '--socket', sock, '--state-dir', dir .. '/state' },
      { env = { XDG_CACHE_HOME = dir .. '/cache' } })
    truthy(job > 0, 'pickerd started')
    wait('the second daemon', function() return vim.loop.fs_stat(sock) ~= nil end)
    return job
  end
  local job = start()
  picker.setup({ socket = sock, session = 'lost' })
  vim.cmd('PickerOpen')
  wait('the picker', function() return picker.state() ~= nil and #picker.state().albums > 0 end)
  local v = picker.state()
  vim.fn.jobstop(job)
  vim.fn.jobwait({ job }, 5000)
  wait('the header to say so', function() return lines(v.bufs.header)[1]:find('not following events', 1, true) ~= nil end)
  job = start()
  api.nvim_set_current_win(v.wins.albums)
  keys('R')
  wait('reconnected', function() return v.client:is_open() and not lines(v.bufs.header)[1]:find('not following', 1, true) end)
  wait('subscribed again: another client\'s change shows', function()
    vim.fn.system({ PICKERCTL, '--socket', sock, '--session', 'lost', 'select-album', 'Portraits' })
    return line_has(v.bufs.albums, 'Portraits', '> ')
  end)
  vim.cmd('PickerClose')
  vim.fn.jobstop(job)
  vim.fn.jobwait({ job }, 5000)
  vim.fn.delete(dir, 'rf')
  picker.setup({ socket = SOCKET, session = SESSION, width = 640, height = 480,
    formats = { markdown = '![](%s)', lua = function(p) return ('-- %s/%s'):format(p.album, p.name) end } })
end)

local want_paths = {
  LIB .. '/Landscapes/Landscape_1.jpg',
  LIB .. '/Landscapes/Landscape_8.jpg',
  LIB .. '/Portraits/hopper_reference.webp',
}

local function insert_and_wait(args)
  local done, got = false, nil
  picker.insert(vim.tbl_extend('force', args or {}, { on_done = function(l) done, got = true, l end }))
  wait(':PickerInsert', function() return done end)
  return got
end

test(':PickerInsert in a markdown buffer inserts image links', function()
  vim.cmd('enew')
  vim.bo.filetype = 'markdown'
  vim.cmd('PickerInsert')
  wait('inserted lines', function() return #lines(0) == 3 end)
  eq(vim.tbl_map(function(p) return '![](' .. p .. ')' end, want_paths), lines(0), 'markdown lines')
end)

test(':PickerInsert in a plain buffer inserts paths at the cursor', function()
  vim.cmd('enew')
  eq('', vim.bo.filetype, 'plain buffer filetype')
  insert_and_wait()
  eq(want_paths, lines(0), 'plain lines')
  -- In the middle of a line: after the character under the cursor, like `p`.
  vim.cmd('enew')
  api.nvim_buf_set_lines(0, 0, -1, false, { 'cp  dest/' })
  api.nvim_win_set_cursor(0, { 1, 2 })
  insert_and_wait()
  eq({ 'cp ' .. want_paths[1], want_paths[2], want_paths[3] .. ' dest/' }, lines(0), 'charwise insert')
end)

test('per-filetype function formats and :PickerInsert FORMAT', function()
  vim.cmd('enew')
  vim.bo.filetype = 'lua'
  insert_and_wait()
  eq({ '-- Landscapes/Landscape_1.jpg', '-- Landscapes/Landscape_8.jpg', '-- Portraits/hopper_reference.webp' },
    lines(0), 'function format')
  vim.cmd('enew')
  vim.cmd('PickerInsert <img src="%s">')
  wait('inserted lines', function() return #lines(0) == 3 end)
  eq('<img src="' .. want_paths[1] .. '">', lines(0)[1], 'literal format')
  vim.cmd('enew')
  vim.cmd('PickerInsert markdown')
  wait('inserted lines', function() return #lines(0) == 3 end)
  eq('![](' .. want_paths[3] .. ')', lines(0)[3], 'named format')
end)

test('I in the picker closes it and inserts into the window it came from', function()
  vim.cmd('enew')
  vim.bo.filetype = 'markdown'
  local buf = api.nvim_get_current_buf()
  vim.cmd('PickerOpen')
  wait('the picker', function() return picker.state() ~= nil end)
  local v = picker.state()
  eq(v.wins.photos, api.nvim_get_current_win(), 'reopened with an album selected: focus on the photos')
  wait('photos', function() return find_line(v.bufs.photos, 'hopper_reference.webp') ~= nil end)
  keys('I')
  eq(nil, picker.state(), 'picker closed by I')
  eq(buf, api.nvim_get_current_buf(), 'back in the origin buffer')
  wait('inserted lines', function() return #lines(buf) == 3 end)
  eq('![](' .. want_paths[1] .. ')', lines(buf)[1], 'first link')
end)

test('closed and created events on a second session', function()
  local other = SESSION .. '-2'
  vim.cmd('PickerOpen ' .. other)
  wait('the picker on ' .. other, function() return picker.state() ~= nil and picker.state().name == other end)
  local v = picker.state()
  wait('albums', function() return find_line(v.bufs.albums, 'Landscapes') ~= nil end)
  local function ctl2(args)
    local cmd = { PICKERCTL, '--socket', SOCKET, '--session', other }
    vim.list_extend(cmd, args)
    local out = vim.fn.system(cmd)
    if vim.v.shell_error ~= 0 then fail(out) end
  end
  -- An event seen proves the watch has subscribed.
  local seen, tries = v.events, 0
  repeat
    tries = tries + 1
    ctl2({ 'select-album', tries % 2 == 1 and 'Landscapes' or 'Portraits' })
  until vim.wait(250, function() return v.events > seen end, 20) or tries >= 40
  if v.events == seen then fail('the watch on ' .. other .. ' never saw an event') end
  ctl2({ 'session', 'close' })
  wait('closed status', function() return lines(v.bufs.header)[1]:find('session closed', 1, true) ~= nil end)
  ctl2({ 'session', 'new', '--width', '300' })
  ctl2({ 'select-album', 'Portraits' })
  wait('recreated session followed', function() return find_line(v.bufs.photos, 'hopper_reference.webp') ~= nil end)
  if lines(v.bufs.header)[1]:find('session closed', 1, true) then fail('status not cleared') end
  vim.cmd('PickerClose')
  eq(nil, picker.state(), 'closed')
end)

h.main('nvim picker tests', function()
  -- The tests after :PickerOpen depend on it.
  for _, t in ipairs(h.tests) do
    if t.name:find(':PickerOpen creates', 1, true) then t.opts.stop_on_failure = true end
  end
end)
