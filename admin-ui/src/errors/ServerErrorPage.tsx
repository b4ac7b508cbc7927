import { ErrorPage } from './ErrorPage';

export default function ServerErrorPage() {
  return (
    <ErrorPage
      code="app.errors.server_title"
      message="app.errors.server"
      detail="app.errors.server_detail"
    />
  );
}
