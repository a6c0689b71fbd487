package campaign

import (
	"errors"
	"verdict/verr"
)

func asError(err error, target **verr.Error) bool { return errors.As(err, target) }
