/* Manual progression of one in-flight non-blocking reduction: see include/cakrylov/private/progress.h */
#include <cakrylov/private/cakrylovimpl.h>

const char *const CAKrylovProgressTypes[] = {"none", "test", "CAKrylovProgressType", "CAKRYLOV_PROGRESS_", NULL};

static CAKrylovProgressRegion region = {NULL, 1, 0, 0, 0};

PetscErrorCode CAKrylovProgressBegin(MPI_Request *req, PetscInt ntests, PetscInt expected_polls, CAKrylovProgressRegion *saved)
{
  PetscFunctionBegin;
  *saved     = region;
  region.req = req;
  /* ntests spread over the work polled as before (at most ntests + 1 tests then); 0: the work is unknown */
  region.every = expected_polls > ntests ? expected_polls / ntests : (expected_polls > 0 ? 1 : 0);
  region.limit = ntests + 1; /* a bound whatever the work and the timing */
  region.polls = 0;
  region.tests = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CAKrylovProgressEnd(const CAKrylovProgressRegion *saved, PetscInt *polls, PetscInt *tests)
{
  PetscFunctionBegin;
  if (polls) *polls = region.polls;
  if (tests) *tests = region.tests;
  region = *saved;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CAKrylovProgressPoll(void)
{
  int flag;

  PetscFunctionBegin;
  if (!region.req) PetscFunctionReturn(PETSC_SUCCESS);
  region.polls++; /* counted to the end of the work: the next region spreads its tests over as many */
  if (*region.req == MPI_REQUEST_NULL || region.tests == region.limit) PetscFunctionReturn(PETSC_SUCCESS);
  /* every every-th poll; unknown work: polls 1, 2, 4, 8, ... (powers of two) */
  if (region.every ? region.polls % region.every : region.polls & (region.polls - 1)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Test(region.req, &flag, MPI_STATUS_IGNORE)); /* completed: *req becomes MPI_REQUEST_NULL */
  region.tests++;
  PetscFunctionReturn(PETSC_SUCCESS);
}
