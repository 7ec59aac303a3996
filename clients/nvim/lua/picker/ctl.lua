-- Runs `pickerctl --json ...` as child processes over vim.loop pipes.
--
-- Why pickerctl and not the socket: the wire protocol is binary (big-endian
-- length-prefixed frames), and the LuaJIT in Neovim 0.7 has no string.pack, so
-- a native client would mean hand-rolling the codec. pickerctl already speaks it,
-- and `--json` gives stable machine-readable output. Commands run one at a time
-- in a FIFO queue so that actions reach the daemon in the order they were made;
-- events come from one long-running `pickerctl watch --json` read line by line.
local uv = vim.loop

local M = {}

local TIMEOUT_MS = 10000

local function decode(text)
  if text == nil or text:match('^%s*$') then return nil end
  local ok, value
  if vim.json and vim.json.decode then
    ok, value = pcall(vim.json.decode, text)
  else
    ok, value = pcall(vim.fn.json_decode, text)
  end
  if ok then return value end
  return nil
end
M.decode = decode

-- JSON null decodes to vim.NIL; make it nil.
function M.val(v)
  if v == vim.NIL then return nil end
  return v
end

local function close_handle(h)
  if h and not h:is_closing() then h:close() end
end

-- argv: the full argument list after the pickerctl program.
-- on_done(code, stdout, stderr) is called on the main loop.
local function spawn(program, argv, on_done)
  local stdout = uv.new_pipe(false)
  local stderr = uv.new_pipe(false)
  local out, err = {}, {}
  local handle, timer
  local exited, code = false, nil
  local pending = 3 -- process exit + two pipe EOFs
  local function finish()
    pending = pending - 1
    if pending > 0 then return end
    close_handle(timer)
    vim.schedule(function() on_done(code, table.concat(out), table.concat(err)) end)
  end
  local pid_or_err
  handle, pid_or_err = uv.spawn(program, { args = argv, stdio = { nil, stdout, stderr } },
    function(c, signal)
      exited = true
      code = (signal ~= 0 and c == 0) and 128 + signal or c
      close_handle(handle)
      finish()
    end)
  if not handle then
    close_handle(stdout); close_handle(stderr)
    vim.schedule(function()
      on_done(127, '', ('cannot run %s: %s'):format(program, tostring(pid_or_err)))
    end)
    return
  end
  local function reader(buf, pipe)
    return function(e, data)
      if data then buf[#buf + 1] = data return end
      if e then buf[#buf + 1] = e end
      close_handle(pipe)
      finish()
    end
  end
  stdout:read_start(reader(out, stdout))
  stderr:read_start(reader(err, stderr))
  timer = uv.new_timer()
  timer:start(TIMEOUT_MS, 0, function()
    if not exited and handle and not handle:is_closing() then
      err[#err + 1] = ('pickerctl timed out after %d ms\n'):format(TIMEOUT_MS)
      handle:kill('sigterm')
    end
  end)
end

-- A client bound to one pickerctl program, socket and session.
local Client = {}
Client.__index = Client

function M.new(opts)
  return setmetatable({
    program = opts.pickerctl or 'pickerctl',
    socket = opts.socket,
    session = opts.session or 'nvim',
    queue = {},
    busy = false,
  }, Client)
end

function Client:argv(args, session)
  local argv = {}
  if self.socket and self.socket ~= '' then
    vim.list_extend(argv, { '--socket', self.socket })
  end
  vim.list_extend(argv, { '--session', session or self.session, '--json' })
  vim.list_extend(argv, args)
  return argv
end

function Client:pump()
  if self.busy then return end
  local job = table.remove(self.queue, 1)
  if not job then return end
  self.busy = true
  spawn(self.program, self:argv(job.args, job.session), function(code, out, err)
    self.busy = false
    local msg = vim.trim(err or '')
    if job.cb then
      local ok, e = pcall(job.cb, code == 0 and decode(out) or nil, code ~= 0 and { code = code, message = msg } or nil)
      if not ok then vim.notify('picker: ' .. tostring(e), vim.log.levels.ERROR) end
    end
    self:pump()
  end)
end

-- Queues `pickerctl --json ARGS`; cb(result, err) with err = {code, message} on failure.
function Client:run(args, cb, session)
  table.insert(self.queue, { args = args, cb = cb, session = session })
  self:pump()
end

-- Starts `pickerctl --session S --json watch --library`; on_event(table) for each line,
-- on_exit(code, stderr) when the process ends. Returns an object with :stop().
function Client:watch(on_event, on_exit)
  local stdout = uv.new_pipe(false)
  local stderr = uv.new_pipe(false)
  local partial, err = '', {}
  local w = { stopped = false }
  local handle, perr
  local pending = 3
  local code = nil
  local function finish()
    pending = pending - 1
    if pending > 0 then return end
    vim.schedule(function()
      w.running = false
      if on_exit then on_exit(code, vim.trim(table.concat(err)), w.stopped) end
    end)
  end
  handle, perr = uv.spawn(self.program, { args = self:argv({ 'watch', '--library' }), stdio = { nil, stdout, stderr } },
    function(c, signal)
      code = (signal ~= 0 and c == 0) and 128 + signal or c
      close_handle(handle)
      finish()
    end)
  if not handle then
    close_handle(stdout); close_handle(stderr)
    vim.schedule(function()
      if on_exit then on_exit(127, ('cannot run %s: %s'):format(self.program, tostring(perr)), false) end
    end)
    return w
  end
  w.running = true
  w.pid = perr
  stdout:read_start(function(e, data)
    if not data then
      close_handle(stdout)
      finish()
      return
    end
    partial = partial .. data
    local lines = {}
    while true do
      local nl = partial:find('\n', 1, true)
      if not nl then break end
      lines[#lines + 1] = partial:sub(1, nl - 1)
      partial = partial:sub(nl + 1)
    end
    if #lines > 0 then
      vim.schedule(function()
        if w.stopped then return end
        for _, line in ipairs(lines) do
          local ev = decode(line)
          if type(ev) == 'table' then on_event(ev) end
        end
      end)
    end
  end)
  stderr:read_start(function(e, data)
    if data then err[#err + 1] = data return end
    close_handle(stderr)
    finish()
  end)
  function w.stop()
    w.stopped = true
    if handle and not handle:is_closing() then handle:kill('sigterm') end
  end
  return w
end

return M
