-- Headless test of the picker plugin against a live pickerd.
-- Run by run-tests.sh: nvim --headless -u NONE --noplugin --cmd 'set rtp^=DIR' -c 'luafile THIS'
-- Environment: PICKER_TEST_PICKERCTL, PICKER_TEST_SOCKET, PICKER_TEST_LIBRARY (real path).
local api = vim.api
local env = vim.env
local PICKERCTL = assert(env.PICKER_TEST_PICKERCTL, 'PICKER_TEST_PICKERCTL not set')
local SOCKET = assert(env.PICKER_TEST_SOCKET, 'PICKER_TEST_SOCKET not set')
local LIB = assert(env.PICKER_TEST_LIBRARY, 'PICKER_TEST_LIBRARY not set')
local SESSION = env.PICKER_TEST_SESSION or 'nvim-test'

local function log(...)
  io.stdout:write(table.concat(vim.tbl_map(tostring, { ... }), ' ') .. '\n')
  io.stdout:flush()
end

local failures = 0
local notes = {}
vim.notify = function(msg, level) notes[#notes + 1] = { msg = msg, level = level } end

local function fail(msg) error(msg, 2) end

local function eq(want, got, what)
  if not vim.deep_equal(want, got) then
    fail(('%s: want %s, got %s'):format(what, vim.inspect(want), vim.inspect(got)))
  end
end

local function wait(what, cond, ms)
  local ok = vim.wait(ms or 5000, cond, 20)
  if not ok then fail('timed out waiting for ' .. what) end
end

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

local tests = {}
local function test(name, fn) tests[#tests + 1] = { name = name, fn = fn } end

test('commands are defined by plugin/picker.lua', function()
  vim.cmd('runtime! plugin/picker.lua')
  for _, c in ipairs({ 'PickerOpen', 'PickerClose', 'PickerInsert', 'PickerClear' }) do
    eq(2, vim.fn.exists(':' .. c), 'command ' .. c)
  end
end)

test('unreachable daemon gives a clear error', function()
  picker.setup({ pickerctl = PICKERCTL, socket = '/tmp/picker-nvim-test-no-such.sock', session = SESSION })
  notes = {}
  vim.cmd('PickerOpen')
  wait('an error notification', function() return #notes > 0 end)
  if not notes[1].msg:find('pickerd running', 1, true) then fail('unexpected message: ' .. notes[1].msg) end
  eq(nil, picker.state(), 'no picker open')
end)

test('missing pickerctl gives a clear error', function()
  picker.setup({ pickerctl = '/nonexistent/pickerctl', socket = SOCKET, session = SESSION })
  notes = {}
  vim.cmd('PickerOpen')
  wait('an error notification', function() return #notes > 0 end)
  if not notes[1].msg:find('cannot run', 1, true) then fail('unexpected message: ' .. notes[1].msg) end
end)

local u
test(':PickerOpen creates the session and shows albums in floating windows', function()
  picker.setup({
    pickerctl = PICKERCTL, socket = SOCKET, session = SESSION, width = 640, height = 480,
    formats = { markdown = '![](%s)', lua = function(p) return ('-- %s/%s'):format(p.album, p.name) end },
  })
  vim.cmd('PickerOpen')
  wait('the picker', function() return picker.state() ~= nil end)
  u = picker.state()
  wait('the album list', function() return find_line(u.bufs.albums, 'Portraits') ~= nil end)
  for _, name in ipairs({ 'header', 'albums', 'photos' }) do
    local cfg = api.nvim_win_get_config(u.wins[name])
    eq('editor', cfg.relative, name .. ' window is floating')
  end
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

test('<CR> on a photo makes it current', function()
  api.nvim_win_set_cursor(u.wins.photos, { 2, 0 })
  keys('<CR>')
  wait('current photo marker', function() return lines(u.bufs.photos)[2]:sub(1, 2) == '> ' end)
  wait('message in header', function() return lines(u.bufs.header)[1]:find('1800x1200 px', 1, true) ~= nil end)
  local st = vim.fn.json_decode(ctl({ 'status' }))
  eq('Landscape_6.jpg', st.photo, 'current photo in the daemon')
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
  wait('album marker', function() return line_has(u.bufs.albums, 'Portraits', '> ') end)
  ctl({ 'toggle', 'hopper_orientation_6.webp' })
  wait('external pick shown', function() return line_has(u.bufs.photos, 'hopper_orientation_6.webp', '[3]') end)
  ctl({ 'select-photo', 'hopper_reference.webp' })
  wait('external current photo', function() return line_has(u.bufs.photos, 'hopper_reference.webp', '> ') end)
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

test('q closes the picker and stops following', function()
  local w = u.watcher
  keys('q')
  eq(nil, picker.state(), 'picker state after q')
  for name, win in pairs(u.wins) do
    if api.nvim_win_is_valid(win) then fail(name .. ' window still open') end
  end
  wait('watch process to end', function() return not w.running end)
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

local function main()
  for _, t in ipairs(tests) do
    local ok, err = xpcall(t.fn, debug.traceback)
    if ok then
      log('ok   ' .. t.name)
    else
      failures = failures + 1
      log('FAIL ' .. t.name .. '\n     ' .. tostring(err):gsub('\n', '\n     '))
      if t.name:find(':PickerOpen', 1, true) then break end -- the rest depends on it
    end
  end
  pcall(picker.close)
  log(('%d tests, %d failed'):format(#tests, failures))
  if failures > 0 then vim.cmd('cquit 1') else vim.cmd('qall!') end
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  log('error: ' .. tostring(err))
  vim.cmd('cquit 1')
end
