-- Client-side pieces without a daemon: the kitty graphics sequences and the hints.
local h = dofile(vim.env.PICKER_TEST_DIR .. '/harness.lua')
local kitty = require('picker.kitty')
local hints = require('picker.hints')
local palette = require('picker.palette')
local test, eq, truthy = h.test, h.eq, h.truthy

test('base64 matches RFC 4648\'s test vectors, padding and high bytes included', function()
  local want = { [''] = '', f = 'Zg==', fo = 'Zm8=', foo = 'Zm9v', foob = 'Zm9vYg==', fooba = 'Zm9vYmE=',
    foobar = 'Zm9vYmFy', ['\0\255\128'] = 'AP+A' }
  for s, b in pairs(want) do eq(b, kitty.base64(s), vim.inspect(s)) end
end)

test('a kitty image is sent in chunks, then placed in one sequence, and its id can be deleted', function()
  local png = string.rep('\137PNG', 2000) -- 8000 bytes: base64 over 4096, so three chunks
  local parts = kitty.transmit_sequences(7, png)
  eq(3, #parts, 'chunks of at most 4096 base64 bytes, one sequence each')
  truthy(parts[1]:find('^\27_Ga=t,f=100,q=2,i=7,m=1;'), 'the first chunk transmits without showing')
  truthy(parts[2]:find('^\27_Gm=1;[^\27]*\27\\$'), 'a middle chunk is one whole sequence')
  truthy(parts[3]:find('^\27_Gm=0;[^\27]*\27\\$'), 'the last chunk ends the image')
  for _, p in ipairs(parts) do truthy(#p <= 4096 + 40, 'each chunk fits one small write') end
  local place = kitty.place_sequence(7, 4, 10, 30, 12)
  eq('\0277\27[5;11H\27_Ga=p,q=2,C=1,i=7,c=30,r=12\27\\\0278', place,
    'cursor saved, moved to row 5 column 11 (1-based), the image placed, cursor restored')
  local written = {}
  local img = kitty.new(function(s) written[#written + 1] = s end)
  img:place(png, 0, 0, 1, 1)
  eq(4, #written, 'three chunks and the placement')
  img:place(png, 0, 0, 1, 1)
  img:clear()
  eq(kitty.delete_sequence(img.id), written[5], 'the old image is deleted before the next')
  eq(kitty.delete_sequence(img.id), written[10], 'and when the pane closes')
end)

test('24-bit colours become the nearest of xterm\'s 256, the rest of the text as it was', function()
  eq(16, palette.index(0, 0, 0), 'black is the cube\'s first')
  eq(231, palette.index(255, 255, 255), 'white is the cube\'s last')
  eq(196, palette.index(255, 0, 0), 'pure red')
  eq(244, palette.index(128, 128, 128), 'mid grey is on the grey ramp')
  eq(67, palette.index(80, 130, 180), 'a sky blue: the cube\'s (1, 2, 3)')
  eq('\27[38;5;196;48;5;16m\226\150\128\27[0m x38;2;1;2;3',
    palette.to_256('\27[38;2;255;0;0;48;2;0;0;0m\226\150\128\27[0m x38;2;1;2;3'),
    'foreground and background in one sequence; text outside sequences untouched')
  eq('\27[1;48;5;231m', palette.to_256('\27[1;48;2;250;250;250m'), 'after another attribute')
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
