/* Manual progression of one in-flight non-blocking reduction: see include/cakrylov/private/progress.h */
#include <cakrylov/private/cakrylovimpl.h>

const char *const CAKrylovProgressTypes[] = {"none", "test", "CAKrylovProgressType", "CAKRYLOV_PROGRESS_", NULL};

static CAKrylovProgressRegion region = {NULL, 1, 0, 0};

PetscErrorCode CAKrylovProgressBegin(MPI_Request *req, PetscInt ntests, PetscInt expected_polls, CAKrylovProgressRegion *saved)
{
  PetscFunctionBegin;
  *saved       = region;
  region.req   = req;
  region.every = (ntests > 0 && expected_polls > ntests) ? expected_polls / ntests : 1; /* spread ntests over the work */
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
  if (*region.req == MPI_REQUEST_NULL || region.polls % region.every) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Test(region.req, &flag, MPI_STATUS_IGNORE)); /* completed: *req becomes MPI_REQUEST_NULL */
  region.tests++;
  PetscFunctionReturn(PETSC_SUCCESS);
}
