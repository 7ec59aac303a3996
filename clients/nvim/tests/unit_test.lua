-- Client-side pieces without a daemon: the kitty graphics sequences and the hints.
local h = dofile(vim.env.PICKER_TEST_DIR .. '/harness.lua')
local kitty = require('picker.kitty')
local hints = require('picker.hints')
local test, eq, truthy = h.test, h.eq, h.truthy

test('base64 matches RFC 4648\'s test vectors, padding and high bytes included', function()
  local want = { [''] = '', f = 'Zg==', fo = 'Zm8=', foo = 'Zm9v', foob = 'Zm9vYg==', fooba = 'Zm9vYmE=',
    foobar = 'Zm9vYmFy', ['\0\255\128'] = 'AP+A' }
  for s, b in pairs(want) do eq(b, kitty.base64(s), vim.inspect(s)) end
end)

test('a kitty placement is chunked, positioned, and its id can be deleted', function()
  local png = string.rep('\137PNG', 2000) -- 8000 bytes: base64 over 4096, so three chunks
  local seq = kitty.sequences(7, png, 4, 10, 30, 12)
  truthy(seq:sub(1, 2) == '\0277' and seq:sub(-2) == '\0278', 'cursor saved and restored')
  truthy(seq:find('\27[5;11H', 1, true), 'moved to row 5, column 11 (1-based)')
  truthy(seq:find('\27_Ga=T,f=100,q=2,C=1,i=7,c=30,r=12,m=1;', 1, true), 'first chunk')
  local _, chunks = seq:gsub('\27_G', '')
  eq(3, chunks, 'chunks of at most 4096 base64 bytes')
  truthy(seq:find('\27_Gm=0;[^\27]*\27\\\0278$'), 'the last chunk ends the image')
  local written = {}
  local img = kitty.new(function(s) written[#written + 1] = s end)
  img:place(png, 0, 0, 1, 1)
  img:place(png, 0, 0, 1, 1)
  img:clear()
  eq(kitty.delete_sequence(img.id), written[2], 'the old image is deleted before the next')
  eq(kitty.delete_sequence(img.id), written[4], 'and when the pane closes')
end)

test('hints add how to fix it in Neovim terms; unknown codes get none', function()
  eq('the selection is full (limit 10) (un-pick a photo with <Tab> in :PickerOpen, or :PickerClear)',
    hints.text({ code = 16, name = 'selection_full', message = 'the selection is full (limit 10)' }), 'selection_full')
  eq('something new', hints.text({ code = 4242, name = 'internal', message = 'something new' }), 'unknown code')
end)

test('the session is setup{ session }, else $PICKER_SESSION, else nvim', function()
  local saved = vim.env.PICKER_SESSION
  local function fresh(env)
    vim.env.PICKER_SESSION = env
    package.loaded['picker'] = nil
    return require('picker')
  end
  eq('from-env', fresh('from-env').config.session, '$PICKER_SESSION')
  eq('nvim', fresh('').config.session, 'empty $PICKER_SESSION')
  eq('nvim', fresh(nil).config.session, 'unset')
  eq('mine', fresh('from-env').setup({ session = 'mine' }).config.session, 'setup{} wins')
  vim.env.PICKER_SESSION = saved
  package.loaded['picker'] = nil
end)

h.main('nvim unit tests', function() end)
