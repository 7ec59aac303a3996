-- Headless tests of the picker plugin against a live pickerd, in one nvim, in order.
-- Run by run-tests.sh: nvim --headless -u NONE --noplugin --cmd 'set rtp^=DIR' -c 'luafile THIS'
local dir = vim.env.PICKER_TEST_DIR
local S = dofile(dir .. '/picker_support.lua')
local h = S.h
-- Each file runs with S as its globals (its helpers and the harness), _G behind them.
for _, f in ipairs({ 'conn_test.lua', 'picker_test.lua', 'insert_test.lua' }) do
  local chunk = assert(loadfile(dir .. '/' .. f))
  setfenv(chunk, S)()
end

h.main('nvim picker tests', function()
  -- The tests after :PickerOpen depend on it.
  for _, t in ipairs(h.tests) do
    if t.name:find(':PickerOpen creates', 1, true) then t.opts.stop_on_failure = true end
  end
end)
