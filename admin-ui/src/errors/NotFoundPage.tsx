import { ErrorPage } from './ErrorPage';

export default function NotFoundPage() {
  return <ErrorPage code="app.errors.not_found_title" message="app.errors.not_found" />;
}
