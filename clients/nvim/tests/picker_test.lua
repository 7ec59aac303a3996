-- The picker window against the live daemon: :PickerOpen, the panes, the picture, picks,
-- events, closing, reconnecting. Runs after conn_test.lua, before insert_test.lua.
-- Loaded by live_tests.lua with picker_support.lua's table as its environment (S, h, api,
-- picker, test, eq, wait, ctl, lines, ...).

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
  -- Issue 25 #6: the size column has its unit.
  for _, l in ipairs(lines(u.bufs.photos)) do
    truthy(l:find('%d [kM]?B$'), 'size with a unit: ' .. l)
  end
  wait('album marker', function() return lines(u.bufs.albums)[row]:sub(1, 2) == '> ' end)
  if not lines(u.bufs.header)[2]:find('album: Landscapes', 1, true) then
    fail('header: ' .. vim.inspect(lines(u.bufs.header)))
  end
end)

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
  -- A headless Neovim has 'termguicolors' off, as 0.7 has by default: the terminal buffer would
  -- drop 24-bit colours, so they are sent as xterm's 256.
  eq(false, vim.o.termguicolors)
  truthy(sent:find('38;5;%d+') and sent:find('48;5;%d+'), '256-colour indices in what was sent')
  truthy(not sent:find('8;2;%d+;%d+;%d+'), 'no 24-bit colour left')
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

test('with \'termguicolors\' on, the symbols keep their 24-bit colours', function()
  vim.o.termguicolors = true
  local sends = u.image.sends
  keys('k')
  wait('photo 1 current in the daemon', function() return status().photo == 'Landscape_1.jpg' end)
  wait('a new picture', function() return u.image.sends > sends end)
  local sent = u.image.sent
  truthy(sent:find('38;2;%d+;%d+;%d+') and sent:find('48;2;%d+;%d+;%d+'), '24-bit colours in what was sent')
  vim.o.termguicolors = false
  keys('j')
  wait('photo 2 again', function() return status().photo == 'Landscape_6.jpg' end)
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
