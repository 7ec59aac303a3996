-- :checkhealth picker: the socket, the daemon's version, the session used, and how the image
-- pane can draw (symbols always; kitty placement when configured and the terminal speaks it).
local conn = require('picker.conn')
local kitty = require('picker.kitty')

local M = {}

-- vim.health (0.8+: start/ok/warn/error, or report_* in 0.8-0.9) or 0.7's require('health').
local function reporter()
  local h = vim.health or require('health')
  local function pick(new, old) return h[new] or h[old] end
  return {
    start = pick('start', 'report_start'), ok = pick('ok', 'report_ok'),
    warn = pick('warn', 'report_warn'), error = pick('error', 'report_error'),
    info = pick('info', 'report_info'),
  }
end

-- The daemon's version over a new connection, or nil and why not (waits at most 5 s).
local function ping(path)
  local c = conn.open({ socket = path, client_name = 'picker.nvim checkhealth' })
  local version, problem
  c:request('ping', {}, function(fields, err)
    if err then problem = err.message or tostring(err.name) else version = fields.server_version end
  end)
  if not vim.wait(5000, function() return version ~= nil or problem ~= nil end, 10) then
    problem = 'no answer within 5 s'
  end
  c:close()
  return version, problem
end

function M.check()
  local r = reporter()
  local cfg = require('picker').config
  r.start('picker: the pickerd daemon')
  local path = conn.socket_path(cfg.socket)
  local stat = vim.loop.fs_stat(path)
  if not stat then
    r.error('no socket at ' .. path, { 'start the daemon: pickerd --library DIR &',
      'or set setup{ socket = PATH } / $PICKER_SOCKET' })
  elseif stat.type ~= 'socket' then
    r.error(path .. ' is not a socket (' .. stat.type .. ')')
  else
    r.ok('socket found: ' .. path)
    local version, problem = ping(path)
    if version then r.ok('pickerd ' .. version .. ' answers') else r.error('pickerd does not answer: ' .. problem) end
  end
  r.info('session: ' .. cfg.session .. ' (setup{ session = NAME }, else $PICKER_SESSION, else nvim)')
  r.start('picker: graphics')
  r.ok('coloured symbols in the image pane (a terminal buffer: works in any terminal with 24-bit colour)')
  if not cfg.kitty then
    r.info('kitty placement off (setup{ kitty = true } places the PNG in kitty, WezTerm or Ghostty)')
  elseif kitty.supported() then
    r.ok('kitty placement: this terminal speaks the kitty graphics protocol')
  else
    r.warn('kitty placement is on, but this terminal does not speak the kitty graphics protocol'
      .. ' (or runs inside tmux): symbols only')
  end
end

return M
