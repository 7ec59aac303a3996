-- Issue 21 #6: hostile file names, without a daemon: inserted link text stays one link per photo,
-- and a newline in a name does not stop the photo list from drawing.
local h = dofile(vim.env.PICKER_TEST_DIR .. '/harness.lua')
local insert = require('picker.insert')
local render = require('picker.render')
local api = vim.api
local test, eq, truthy = h.test, h.eq, h.truthy

local hostile = {
  '/lib/a) ![x](/b) <img src=x onerror=alert(1)> (.png',
  '/lib/x]] [[elisp:(shell-command "touch /tmp/pwn")]] [[y.png',
  '/lib/two\n.bashrc.png',
  '/lib/back\\slash [1].png',
}

test('markdown insertion keeps every hostile name inside one image link', function()
  local buf = api.nvim_create_buf(false, true)
  local lines = {}
  for _, p in ipairs(hostile) do
    for _, l in ipairs(vim.split(insert.format_photo('![](%s)', { absolute_path = p }), '\n', { plain = true })) do
      lines[#lines + 1] = l
    end
  end
  api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  local text = api.nvim_buf_get_lines(buf, 0, -1, false)
  eq(#hostile, #text, 'one line per photo')
  for _, l in ipairs(text) do
    truthy(l:match('^!%[%]%(/lib/[^][()<> \\"]*%)$'), 'one plain link: ' .. l)
  end
  eq('/lib/two%0A.bashrc.png', insert.format_photo('%s', { absolute_path = hostile[3] }), 'plain paths stay one line')
end)

test('a newline in a name does not leave the photo list on (loading…)', function()
  local bufs = { header = api.nvim_create_buf(false, true), albums = api.nvim_create_buf(false, true),
    photos = api.nvim_create_buf(false, true) }
  local u = { name = 't', bufs = bufs, wins = { header = -1 }, selection = {}, albums_loaded = true,
    albums = { { name = 'A', photos = 1 } }, photos_album = 'A',
    photos = { { index = 1, name = 'two\n.bashrc.png', width = 1, height = 1, format = 'PNG', bytes = 10 } },
    session = { album = 'A', photo = 'two\n.bashrc.png', photo_index = 1 } }
  local ok, err = pcall(render.panes, u)
  truthy(ok, 'render: ' .. tostring(err))
  local shown = api.nvim_buf_get_lines(bufs.photos, 0, -1, false)
  eq(1, #shown, 'one row')
  truthy(shown[1]:find('two\\x0a.bashrc.png', 1, true), 'the name, escaped: ' .. shown[1])
end)

h.main('nvim names tests', function() end)
