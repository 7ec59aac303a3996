-- :PickerInsert and I: the picks made in picker_test.lua inserted as links and paths.
-- Loaded by live_tests.lua with picker_support.lua's table as its environment (S, h, api,
-- picker, test, eq, wait, ctl, lines, ...).

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
