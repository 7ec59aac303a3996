-- What the live-daemon tests share (live_tests.lua loads it once and hands it to each file):
-- the environment run-tests.sh sets, notifications caught, pickerctl, buffer helpers.
-- Environment: PICKER_TEST_PICKERCTL, PICKER_TEST_SOCKET, PICKER_TEST_LIBRARY (real path).
local api = vim.api
local env = vim.env
local S = {}
S.PICKERCTL = assert(env.PICKER_TEST_PICKERCTL, 'PICKER_TEST_PICKERCTL not set')
S.SOCKET = assert(env.PICKER_TEST_SOCKET, 'PICKER_TEST_SOCKET not set')
S.LIB = assert(env.PICKER_TEST_LIBRARY, 'PICKER_TEST_LIBRARY not set')
S.SESSION = env.PICKER_TEST_SESSION or 'nvim-test'
local PICKERCTL, SOCKET, SESSION = S.PICKERCTL, S.SOCKET, S.SESSION

local h = dofile(vim.env.PICKER_TEST_DIR .. '/harness.lua')
S.h = h
local fail, wait = h.fail, h.wait

-- vim.notify's messages, newest last (a test may reset S.notes = {}).
S.notes = {}
vim.notify = function(msg, level) S.notes[#S.notes + 1] = { msg = msg, level = level } end

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

-- Runs fn(done) and waits until done(...) was called; its arguments.
local function await(what, fn)
  local got
  fn(function(...) got = { ... } end)
  wait(what, function() return got ~= nil end)
  return unpack(got)
end

-- The terminal buffer's text once the terminal has drawn what was sent: the rows with a symbol.
local function drawn_rows(buf)
  return vim.tbl_filter(function(l) return l:match('%S') ~= nil end, lines(buf))
end

S.lines, S.keys, S.ctl, S.status, S.find_line, S.line_has, S.await, S.drawn_rows, S.picker =
  lines, keys, ctl, status, find_line, line_has, await, drawn_rows, picker
S.S, S.api, S.fail, S.eq, S.wait, S.test, S.truthy = S, api, h.fail, h.eq, h.wait, h.test, h.truthy
-- The test files' environment (live_tests.lua): these names, then the globals.
return setmetatable(S, { __index = _G })
