-- SPDX-License-Identifier: MIT
-- mpi: whether this process is a rank of an MPI job, and the MPI module when it is.
--
--   local mpi = require "mpi"
--   if mpi.under_mpi() then
--     local m = mpi.load()               -- the C module sweepmpi (lib/mechlua/sweepmpi.so)
--     local rank, size = m.init()
--     ...
--   end
--
-- Requiring this module loads nothing of MPI: under_mpi() reads the launcher's environment
-- only, so a plain `mechlua script.lua` neither loads libmpi nor starts MPI.  The functions
-- of sweepmpi are described at the top of stdlib/sweepmpi.c.
local M = {}

local getenv = os.getenv

-- mpi.under_mpi() -> true, launcher | false, why: whether a launcher started this process as
-- a rank of an MPI job.  launcher is "openmpi" (mpirun/mpiexec of Open MPI: OMPI_COMM_WORLD_SIZE),
-- "pmix" (a PMIx server: PMIX_RANK, as srun --mpi=pmix or prterun set) or "pmi" (PMI-1/2:
-- PMI_RANK or PMI_SIZE, as srun --mpi=pmi2 sets), or "running" once sweepmpi.init() has
-- started MPI in this process.  false for a plain run (why is nil), for a program started
-- by a rank (why is "started by rank N": it inherits the launcher's variables but is no
-- rank), and for srun without an MPI plugin (why says so: the tasks cannot reach each
-- other, each would run the whole study).
function M.under_mpi()
  local c = package.loaded.sweepmpi
  if type(c) == "table" and type(c.initialized) == "function" and c.initialized() then
    return true, "running"
  end
  local parent = getenv("MECHLUA_MPI_RANK")
  if parent then return false, "started by rank " .. parent end
  if getenv("OMPI_COMM_WORLD_SIZE") then return true, "openmpi" end
  if getenv("PMIX_RANK") then return true, "pmix" end
  if getenv("PMI_RANK") or getenv("PMI_SIZE") then return true, "pmi" end
  local tasks = tonumber(getenv("SLURM_STEP_NUM_TASKS") or "")
  if tasks and tasks > 1 then
    return false, "srun started " .. tasks .. " tasks without an MPI plugin (srun --mpi=pmix)"
  end
  return false
end

local NOT_BUILT = "MPI support was not built: mechlua was configured without Open MPI "
  .. "(install Debian's libopenmpi-dev and openmpi-bin, then rebuild)"

-- mpi.available() -> true when the MPI module was built (without loading it)
function M.available()
  return package.searchpath("sweepmpi", package.cpath) ~= nil
end

-- mpi.load() -> the C module sweepmpi; raises when mechlua was built without MPI.
function M.load()
  if package.loaded.sweepmpi then return package.loaded.sweepmpi end
  if not M.available() then error("mpi.load: " .. NOT_BUILT, 2) end
  return require("sweepmpi")
end

return M
