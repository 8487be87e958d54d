import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a as t,b as i}from"./chunks/chunk-2STMOWFE.js";import"./chunks/chunk-2O42GUHN.js";import{a as o}from"./chunks/chunk-S5JNLVRV.js";import"./chunks/chunk-JVP5GB6A.js";import"./chunks/chunk-WP4UVMJV.js";import"./chunks/chunk-Q2YW2U22.js";import"./chunks/chunk-F5X2UFR4.js";import"./chunks/chunk-S6LZZGEC.js";import"./chunks/chunk-RVAE47MI.js";import"./chunks/chunk-7DOOPZ4R.js";import"./chunks/chunk-QQMVQEPJ.js";import"./chunks/chunk-XBPPTJU7.js";await o(i,t);
