import { useEffect } from 'react';

export function NotFoundPage({ path }: { path: string }) {
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', path);
  }, [path]);

  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-100 dark:bg-gray-950">
      <div className="text-center">
        <h1 className="mb-4 text-4xl font-bold text-gray-900 dark:text-gray-100">404</h1>
        <p className="mb-4 text-xl text-muted-foreground">Oops! Page not found</p>
        <a href="/" className="text-blue-600 underline hover:text-blue-800 dark:text-blue-400">
          Return to Home
        </a>
      </div>
    </main>
  );
}
