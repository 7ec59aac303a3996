-- A tiny test runner for the headless Neovim tests: test(name, fn), eq, wait, run().
-- A test fails by raising; run() prints `ok`/`FAIL`/`SKIPPED` lines and exits nvim with
-- status 1 when any failed.
local M = { tests = {} }

function M.log(...)
  io.stdout:write(table.concat(vim.tbl_map(tostring, { ... }), ' ') .. '\n')
  io.stdout:flush()
end

function M.fail(msg) error(msg, 2) end

function M.eq(want, got, what)
  if not vim.deep_equal(want, got) then
    error(('%s: want %s, got %s'):format(what, vim.inspect(want), vim.inspect(got)), 2)
  end
end

function M.truthy(v, what)
  if not v then error(what, 2) end
  return v
end

-- Waits until cond() holds. Inside the test coroutine it yields to Neovim's main loop between
-- checks, so what only the main loop does (CursorMoved after a key, terminal redraws) happens
-- as it does for a user; vim.wait alone would not run those.
function M.wait(what, cond, ms)
  local co = coroutine.running()
  if not co then
    if not vim.wait(ms or 5000, cond, 10) then error('timed out waiting for ' .. what, 2) end
    return
  end
  local deadline = vim.loop.hrtime() + (ms or 5000) * 1e6
  while not cond() do
    if vim.loop.hrtime() > deadline then error('timed out waiting for ' .. what, 2) end
    vim.defer_fn(function() M.resume(co) end, 10)
    coroutine.yield()
  end
end

function M.resume(co)
  local ok, err = coroutine.resume(co)
  if not ok then
    M.log('error: ' .. debug.traceback(co, tostring(err)))
    vim.cmd('cquit 1')
  end
end

-- opts.stop_on_failure: the tests after it depend on it.
function M.test(name, fn, opts)
  M.tests[#M.tests + 1] = { name = name, fn = fn, opts = opts or {} }
end

-- A test calls skip(reason) when something it needs is missing: reported, never a pass.
local SKIP = {}
function M.skip(reason) error({ [SKIP] = true, reason = reason }, 0) end

function M.run(suite)
  local failures, skipped = 0, 0
  for _, t in ipairs(M.tests) do
    local ok, err = xpcall(t.fn, function(e)
      if type(e) == 'table' and e[SKIP] then return e end
      return debug.traceback(tostring(e), 2)
    end)
    if ok then
      M.log('ok   ' .. t.name)
    elseif type(err) == 'table' and err[SKIP] then
      skipped = skipped + 1
      M.log('SKIPPED ' .. t.name .. ': ' .. err.reason)
    else
      failures = failures + 1
      M.log('FAIL ' .. t.name .. '\n     ' .. tostring(err):gsub('\n', '\n     '))
      if t.opts.stop_on_failure then break end
    end
  end
  M.log(('%s: %d tests, %d failed, %d skipped'):format(suite, #M.tests, failures, skipped))
  return failures == 0
end

-- Runs setup() and the tests in a coroutine, then quits nvim with the verdict (status 1 on
-- a failure or an error).
function M.main(suite, setup)
  M.resume(coroutine.create(function()
    local ok, res = xpcall(setup, debug.traceback)
    if not ok then M.log('error: ' .. tostring(res)) end
    local passed = ok and M.run(suite)
    vim.schedule(function()
      if passed then vim.cmd('qall!') else vim.cmd('cquit 1') end
    end)
  end))
end

return M
